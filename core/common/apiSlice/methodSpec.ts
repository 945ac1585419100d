import type { ArgCheck } from './argChecks';

/**
 * What a call may touch, for hosts that serve several pages at once (browser mode): `any-page` reads the app or
 * the project, `session-page` acts on the open session (only the page that opened it), `takes-session` opens one.
 */
export type MethodScope = 'any-page' | 'session-page' | 'takes-session';

export interface MethodSpec {
  /** each parameter's name and check, in order; every host runs them before the handler */
  params: ReadonlyArray<readonly [string, ArgCheck]>;
  scope: MethodScope;
  /** the one argument is raw bytes (sent as a binary body over HTTP, a Buffer over IPC) */
  binary?: true;
  /** the answer is a SessionPatch (session/sessionApi.ts): what the act changed, to apply to the view the page holds (sessionPatch.ts) */
  answer?: 'session-patch';
}

/**
 * A domain's argument table: exactly one entry per method of its API type (TypeScript insists on each, and on no
 * other); `answer: 'session-patch'` exactly on the methods that answer with Patch (none, in a slice that gives no Patch).
 */
export type MethodTable<Api, Patch = never> = {
  readonly [M in keyof Api]: MethodSpec &
    (Api[M] extends (...args: never[]) => Promise<infer Answer>
      ? [Answer] extends [Patch]
        ? { answer: 'session-patch' }
        : { answer?: never }
      : never);
};

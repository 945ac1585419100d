import { afterAll, beforeAll, describe, it } from 'vitest';

/** Where a hostile input arrives; the census counts cases per surface so the next pass starts from this suite. */
export type Surface = 'browser mode' | 'files' | 'crash points' | 'electron policy' | 'rooms' | 'exports' | 'imports' | 'de-identification';

/** One bad input or attack and the check that it is refused or harmless. */
export interface HostileCase<C> {
  name: string;
  run(ctx: C): Promise<void> | void;
}

/** A group of hostile cases on one surface, sharing a fixture (a project, a running host). */
export interface HostileGroup<C> {
  surface: Surface;
  area: string;
  setup(): Promise<C> | C;
  teardown?(ctx: C): Promise<void> | void;
  cases: ReadonlyArray<HostileCase<C>>;
}

export function hostileGroup<C>(group: HostileGroup<C>): HostileGroup<C> {
  return group;
}

/** Registers a group as a vitest suite: one test per case. */
export function runHostileGroup<C>(group: HostileGroup<C>): void {
  describe(`[${group.surface}] ${group.area} (${group.cases.length} hostile cases)`, () => {
    let ctx: C;
    beforeAll(async () => {
      ctx = await group.setup();
    });
    afterAll(async () => {
      if (ctx !== undefined) await group.teardown?.(ctx);
    });
    for (const c of group.cases) it(c.name, () => c.run(ctx));
  });
}

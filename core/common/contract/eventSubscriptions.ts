import type { AloudEvent } from './aloudApi';

export type AloudEventType = AloudEvent['type'];
export type AloudEventOf<T extends AloudEventType> = Extract<AloudEvent, { type: T }>;

/** Every event type of the contract: keyed by the AloudEvent union, so the compiler holds the two together. */
const EVENT_TYPES: { readonly [T in AloudEventType]: true } = {
  item: true,
  session_reopened: true,
  recording: true,
  transcription: true,
  finishing: true,
  partial: true,
  error: true,
  export_progress: true,
  collect_progress: true,
  room_changed: true,
  model_download: true,
  engine: true,
};
export const ALOUD_EVENT_TYPES = Object.keys(EVENT_TYPES) as readonly AloudEventType[];

type PascalCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Capitalize<Head>}${PascalCase<Tail>}` : Capitalize<S>;

/** `onItem`, `onPartial`, `onModelDownload`, …: one typed subscription per event type; each returns the function that stops it. */
export type AloudEventSubscriptions = {
  readonly [T in AloudEventType as `on${PascalCase<T>}`]: (listener: (event: AloudEventOf<T>) => void) => () => void;
};

/** The subscription name of an event type: `model_download` → `onModelDownload`. */
export function subscriptionName<T extends AloudEventType>(type: T): `on${PascalCase<T>}` {
  return `on${type.replace(/(^|_)([a-z])/g, (_, _sep: string, c: string) => c.toUpperCase())}` as `on${PascalCase<T>}`;
}

/** The typed subscriptions over one event stream: a listener hears only its type, already narrowed (nobody casts an event). */
export function eventSubscriptions(onEvent: (listener: (event: AloudEvent) => void) => () => void): AloudEventSubscriptions {
  const subscriptions: Record<string, (listener: (event: AloudEvent) => void) => () => void> = {};
  for (const type of ALOUD_EVENT_TYPES) {
    subscriptions[subscriptionName(type)] = (listener) =>
      onEvent((event) => {
        if (event.type === type) listener(event);
      });
  }
  return subscriptions as unknown as AloudEventSubscriptions;
}

/**
 * An event as an append-only log stores it, for a domain's table of event data by type: its data's version, its
 * place in the log, when it happened, its type and its data. Sessions, rooms, shadow rooms and adjudication logs share it.
 */
export type LoggedEvent<Data> = {
  [T in keyof Data]: { v: number; seq: number; ts: string; type: T; data: Data[T] };
}[keyof Data];

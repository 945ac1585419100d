/** The adjudication domain of the app API; its handlers are core/node/adjudication/adjudicationHandlers.ts. */
import type { MethodTable } from '../apiSlice/methodSpec';
import { boolean, bytes, nonEmptyString, nonEmptyStrings, nullableText, oneOf } from '../apiSlice/argChecks';
import type { AdjudicationItemView, AdjudicationQueueView } from './adjudicationViews';
import type { RefusalMessage } from '../refusal/refusalMessage';

export interface AdjudicationApi {
  /** items an adjudicator assigned to the open session's annotator, in the order assigned (the Label screen shows them first) */
  assignedItems(): Promise<string[]>;
  /** the lead's adjudication queue (annotators by shown name only: "Annotator n" with adjudication.blind_names) */
  adjudicationQueue(): Promise<AdjudicationQueueView>;
  /** one item side by side: each annotator's protocol, commit phrase, changes of mind, time on item, the decisions */
  adjudicationItem(itemId: string): Promise<AdjudicationItemView>;
  /** the open session's annotator decides (or revises) the item's gold label, in her own adjudication log */
  decideGoldLabel(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    rationale: string | null,
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
  /** the lead is about to speak her rationale for this item (the recording that follows is for it) */
  beginSpokenRationale(itemId: string): Promise<null>;
  /** her spoken rationale as a WAV: transcribed verbatim, held (not yet kept) until she decides with it */
  spokenRationaleAudio(wav: Uint8Array): Promise<SpokenRationaleView>;
  /** decides (or revises) the item's gold label with the spoken rationale transcribed for it; the WAV is kept then */
  decideGoldLabelSpoken(
    itemId: string,
    label: string,
    confidence: string,
    causes: string[],
    guidelineFlag: string | null,
  ): Promise<AdjudicationItemView>;
  /**
   * the lead sends queued items to a huddle room the app serves (one room at a time; lan: open to the local network),
   * logged in her own adjudication log with the room's code, as `aloud adjudicate --huddle` does
   */
  sendToHuddle(itemIds: string[], lan: boolean): Promise<HuddleView>;
  /** the huddles the lead sent, newest first */
  huddles(): Promise<HuddleView[]>;
  /**
   * a huddle's outcome as the lead's decisions with the room named: the room's majority on each revealed item (as
   * `aloud adjudicate --from-room`); refused while the app still serves the room (its votes are not final)
   */
  decideFromRoom(code: string, confidence: string, causes: string[], rationale: string | null): Promise<HuddleOutcomeView>;
}

/** A huddle the lead sent, and where it stands. */
export interface HuddleView {
  room: string;
  item_ids: string[];
  sent_at: string;
  /** the address members open while the app serves the room; null when it does not */
  url: string | null;
  /** the room's log says it was closed: its votes are final */
  closed: boolean;
  /** decisions of the lead's log that name this room */
  decisions: number;
}

/**
 * Why a huddle's item was not decided: no strict majority, not revealed, or the decision refused (its refusal's
 * catalog message in `say`); `reason` is the same in English, as the CLI prints it.
 */
export type HuddleUndecided = 'no_majority' | 'not_revealed' | 'refused';

/** One item of a huddle's outcome: the room's majority, whether it was decided, and if not why. */
export interface HuddleItemOutcome {
  item_id: string;
  /** the room's current majority; null: no strict majority (or not revealed), so nothing was decided */
  label: string | null;
  decided: boolean;
  /** why not decided, in English (the CLI's words) */
  reason?: string;
  /** the same for the app to say in the person's language */
  why?: HuddleUndecided;
  say?: RefusalMessage;
}

/** What taking a huddle's outcome decided, item by item. */
export interface HuddleOutcomeView {
  room: string;
  outcomes: HuddleItemOutcome[];
  /** decisions logged (an item decided the same way already logs nothing) */
  decisions: number;
}

/** A spoken rationale as transcribed, before the decision it goes with. */
export interface SpokenRationaleView {
  item_id: string;
  text: string;
  audio_ms: number;
}

export const ADJUDICATION_METHODS = {
  assignedItems: { params: [], scope: 'session-page' },
  adjudicationQueue: { params: [], scope: 'session-page' },
  adjudicationItem: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  decideGoldLabel: {
    params: [
      ['itemId', nonEmptyString()],
      ['label', nonEmptyString(200)],
      ['confidence', oneOf(['high', 'medium', 'low'])],
      ['causes', nonEmptyStrings(20)],
      ['rationale', nullableText],
      ['guidelineFlag', nullableText],
    ],
    scope: 'session-page',
  },
  beginSpokenRationale: { params: [['itemId', nonEmptyString()]], scope: 'session-page' },
  spokenRationaleAudio: { params: [['wav', bytes]], scope: 'session-page', binary: true },
  decideGoldLabelSpoken: {
    params: [
      ['itemId', nonEmptyString()],
      ['label', nonEmptyString(200)],
      ['confidence', oneOf(['high', 'medium', 'low'])],
      ['causes', nonEmptyStrings(20)],
      ['guidelineFlag', nullableText],
    ],
    scope: 'session-page',
  },
  sendToHuddle: {
    params: [
      ['itemIds', nonEmptyStrings(1000)],
      ['lan', boolean],
    ],
    scope: 'session-page',
  },
  huddles: { params: [], scope: 'session-page' },
  decideFromRoom: {
    params: [
      ['code', nonEmptyString(20)],
      ['confidence', oneOf(['high', 'medium', 'low'])],
      ['causes', nonEmptyStrings(20)],
      ['rationale', nullableText],
    ],
    scope: 'session-page',
  },
} as const satisfies MethodTable<AdjudicationApi>;

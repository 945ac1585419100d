import { caselessKey } from '../text/textFold';
import { guidelineChanges, type GuidelineChange, type GuidelineInForce, type GuidelineScope, type LoggedGuideline } from './guidelines';

/** A guideline flag of an adjudication decision, placed against the version the flagged label was given under. */
export interface GuidelineFlagRef {
  item_id: string;
  text: string;
  adjudicator: string;
  decided_at: string;
  /** the label whose guideline is questioned: one the flag's text names, else the label decided */
  label: string;
  /** the labels' guideline version the item's labels were given under (the last one, if several); null: none logged */
  version: string | null;
}

/** One version of a scope's guidelines as the logs saw it. */
export interface GuidelineVersionRecord {
  scope: GuidelineScope;
  version: string;
  language: string;
  guidelines: LoggedGuideline[];
  /** when a log first recorded it in force (ISO 8601); null: in force now, not used yet */
  first_used: string | null;
  last_used: string | null;
  /** whose logs recorded it */
  annotators: string[];
  /** label or code acts given under it */
  acts: number;
  /** what changed from the version before it (by first use; the first version: nothing) */
  changes: GuidelineChange[];
  /** adjudication flags against this version (labels only) */
  flags: GuidelineFlagRef[];
  /** the version in force now (the project's files as they are) */
  current: boolean;
}

export interface GuidelineHistory {
  versions: GuidelineVersionRecord[];
}

/** What the history reads of a log's event: its type, time and data. */
interface HistoryEvent {
  type: string;
  ts: string;
  data: unknown;
}

/** A decision with a guideline flag, as the adjudication log has it. */
export interface FlaggedDecision {
  item_id: string;
  label: string;
  guideline_flag: string;
  adjudicator: string;
  decided_at: string;
}

const LABEL_ACTS = new Set(['label_committed', 'labels_rederived']);
const CODE_ACTS = new Set(['code_applied', 'code_removed']);

/**
 * The guideline history of a project, folded from its session logs: every version some log recorded in force (its
 * texts as logged), when it was first and last used and by whom, how many acts were given under it, and what changed
 * from the version before. Labels' versions come from `guideline_in_force` events; a codes' version is known from the
 * codebook version every coding act carries, and its texts from the `guideline_in_force` logged before the first act.
 */
export class GuidelineHistoryFold {
  private readonly versions = new Map<string, GuidelineVersionRecord>();
  /** item → the labels' version its last label act (any annotator, latest in time) was given under */
  private readonly itemVersion = new Map<string, { at: string; version: string }>();

  private record(scope: GuidelineScope, version: string): GuidelineVersionRecord {
    const key = `${scope}:${version}`;
    let r = this.versions.get(key);
    if (!r) {
      r = {
        scope,
        version,
        language: '',
        guidelines: [],
        first_used: null,
        last_used: null,
        annotators: [],
        acts: 0,
        changes: [],
        flags: [],
        current: false,
      };
      this.versions.set(key, r);
    }
    return r;
  }

  private used(r: GuidelineVersionRecord, annotator: string, at: string): void {
    if (r.first_used === null || at < r.first_used) r.first_used = at;
    if (r.last_used === null || at > r.last_used) r.last_used = at;
    if (!r.annotators.includes(annotator)) r.annotators.push(annotator);
  }

  /** One annotator's (or coder's) log, its events in order. */
  applyLog(annotator: string, events: Iterable<HistoryEvent>): void {
    let labelsInForce: string | null = null;
    for (const event of events) {
      if (event.type === 'guideline_in_force') {
        const data = event.data as GuidelineInForce;
        const r = this.record(data.scope, data.version);
        if (r.guidelines.length === 0) {
          r.guidelines = data.guidelines;
          r.language = data.language;
        }
        if (data.scope === 'labels') labelsInForce = data.version;
      } else if (LABEL_ACTS.has(event.type) && labelsInForce !== null) {
        const r = this.record('labels', labelsInForce);
        this.used(r, annotator, event.ts);
        r.acts += event.type === 'labels_rederived' ? (event.data as { commitments: unknown[] }).commitments.length : 1;
        const itemId = (event.data as { item_id: string }).item_id;
        const seen = this.itemVersion.get(itemId);
        if (!seen || seen.at <= event.ts) this.itemVersion.set(itemId, { at: event.ts, version: labelsInForce });
      } else if (CODE_ACTS.has(event.type)) {
        const version = (event.data as { codebook_version: string }).codebook_version;
        if (version === '') continue;
        const r = this.record('codes', version);
        this.used(r, annotator, event.ts);
        if (event.type === 'code_applied') r.acts += 1;
      }
    }
  }

  /**
   * The history, oldest first per scope, with the versions in force now (marked current, listed even before any use)
   * and the decisions' guideline flags against the version the flagged item's labels were given under.
   */
  history(current: readonly GuidelineInForce[], flagged: readonly FlaggedDecision[], labelNames: readonly string[]): GuidelineHistory {
    for (const now of current) {
      const r = this.record(now.scope, now.version);
      r.current = true;
      if (r.guidelines.length === 0) {
        r.guidelines = now.guidelines;
        r.language = now.language;
      }
    }
    for (const d of flagged) {
      const version = this.itemVersion.get(d.item_id)?.version ?? null;
      const ref: GuidelineFlagRef = {
        item_id: d.item_id,
        text: d.guideline_flag,
        adjudicator: d.adjudicator,
        decided_at: d.decided_at,
        label: labelNamedIn(d.guideline_flag, labelNames) ?? d.label,
        version,
      };
      if (version !== null) this.record('labels', version).flags.push(ref);
    }
    const order = (a: GuidelineVersionRecord, b: GuidelineVersionRecord) =>
      a.scope !== b.scope
        ? a.scope < b.scope
          ? -1
          : 1
        : (a.first_used ?? '\uffff') < (b.first_used ?? '\uffff')
          ? -1
          : (a.first_used ?? '\uffff') > (b.first_used ?? '\uffff')
            ? 1
            : 0;
    const versions = [...this.versions.values()].sort(order);
    versions.forEach((r, i) => {
      const before = versions[i - 1];
      r.changes =
        before && before.scope === r.scope
          ? guidelineChanges(before.guidelines, r.guidelines, { before: before.language, after: r.language })
          : [];
      r.annotators.sort();
    });
    return { versions };
  }
}

/** The label a flag's text names (the longest name found as whole words, read as people read it), or null. */
export function labelNamedIn(text: string, labelNames: readonly string[]): string | null {
  const folded = ` ${caselessKey(text).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  let found: string | null = null;
  for (const name of labelNames) {
    const key = ` ${caselessKey(name)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
    if (key.trim() !== '' && folded.includes(key) && (found === null || name.length > found.length)) found = name;
  }
  return found;
}

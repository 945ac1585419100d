import { useMemo, type ReactNode } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { createMentionFinder, type LabelMention } from '../../../../core/common/reasoning/labelMentions';
import { reasoningFeatures } from '../../../../core/common/reasoning/reasoningFeatures';
import { ownStepNumber } from '../../../../core/common/reasoning/reasoningSteps';
import { lastJudgmentPerStep } from '../../../../core/common/reasoning/stepJudgments';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { formatClock } from '../../../../core/common/transcript/transcriptMarks';

/** A text with its label mentions marked (negated ones apart), by the same matcher the export uses. */
function marked(text: string, mentions: readonly LabelMention[]): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  mentions.forEach((m, n) => {
    if (m.start > at) out.push(text.slice(at, m.start));
    out.push(
      <mark
        key={n}
        className={m.negated ? 'mention negated' : 'mention'}
        title={`${m.negated ? 'negated mention of' : 'mentions'} ${m.label}`}
        data-label={m.label}
      >
        {m.quote}
      </mark>,
    );
    at = m.end;
  });
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const REWARD_WORDS: Record<string, string> = { '1': '✓ correct', '0': '○ neutral', '-1': '✗ wrong' };

const yesNo = (v: boolean | null): string => (v === null ? '—' : v ? 'yes' : 'no');

/**
 * Review: the annotator's think-aloud beside the model's steps, with label mentions marked on both sides, each
 * step's standing judgment and its source, and the deterministic features the export carries.
 */
export function ReasoningSideBySide({ project, state }: { project: ProjectView; state: ItemSessionState }) {
  const mentionsIn = useMemo(
    () => createMentionFinder({ labels: project.schema.labels, languages: project.thinkaloud.languages }),
    [project],
  );
  const shown = state.reasoning;
  if (!shown) return <p className="muted side-by-side-none">The model’s reasoning was not shown to this annotator for this item.</p>;
  const stepMentions = shown.steps.map((text, i) => ({ step: i + 1, mentions: mentionsIn(text) }));
  const humanMentions = state.transcript === '' ? [] : mentionsIn(state.transcript);
  const judgments = state.step_judgments ?? [];
  const standing = lastJudgmentPerStep(judgments);
  const features = reasoningFeatures({
    human_mentions: humanMentions,
    model_mentions: stepMentions,
    human_final: state.final_label,
    model_final: shown.model_label,
    step_judgments: judgments,
  });
  return (
    <section className="side-by-side" aria-label="think-aloud beside the model's reasoning">
      <div className="side human" role="group" aria-label="annotator's think-aloud">
        <h3>Annotator (think-aloud)</h3>
        {state.segments.length === 0 ? (
          <p className="muted">No transcript.</p>
        ) : (
          <ol className="utterances">
            {state.segments.map((s, n) => (
              <li key={n}>
                <span className="time">{formatClock(s.t0_ms)}</span> {marked(s.text, mentionsIn(s.text))}
              </li>
            ))}
          </ol>
        )}
        <p className="commitments-line">
          Commitments: {state.commitments.length === 0 ? 'none' : state.commitments.map((c) => `“${c.quote}” → ${c.label}`).join('; ')}
          {state.signals?.filler_count != null && ` · fillers ${state.signals.filler_count}`}
          {state.signals?.pauses && ` · pauses ${state.signals.pauses.count}`}
        </p>
        <p>
          Final label: <strong>{state.final_label ?? 'none'}</strong> · reasoning shown {new Date(shown.shown_at).toLocaleTimeString()}
        </p>
      </div>
      <div className="side model" role="group" aria-label="model's reasoning">
        <h3>Model</h3>
        <ol className="model-steps review">
          {shown.steps.map((text, i) => {
            const judged = standing.get(i + 1);
            return (
              <li key={i} data-step={i + 1} data-reward={judged ? String(judged.reward) : ''}>
                <span className="step-text">
                  {ownStepNumber(text) !== i + 1 && <span className="step-number">{i + 1}.</span>}
                  {marked(text, stepMentions[i]!.mentions)}
                </span>
                <span className="step-verdict">
                  {judged
                    ? `${REWARD_WORDS[String(judged.reward)]} (${judged.source}${judged.quote ? `: “${judged.quote}”` : ''})`
                    : 'not judged'}
                </span>
              </li>
            );
          })}
        </ol>
        <p>
          Model’s answer: <strong>{shown.model_label ?? 'none'}</strong>
        </p>
      </div>
      <dl className="reasoning-features" aria-label="reasoning features">
        <dt>Labels mentioned, annotator</dt>
        <dd>{features.human_labels_mentioned.join(' → ') || '—'}</dd>
        <dt>Labels mentioned, model</dt>
        <dd>{features.model_labels_mentioned.join(' → ') || '—'}</dd>
        <dt>Finals agree</dt>
        <dd data-feature="finals_agree">{yesNo(features.finals_agree)}</dd>
        <dt>First step contradicting the annotator’s final</dt>
        <dd data-feature="first_contradicting_step">{features.first_contradicting_step ?? '—'}</dd>
        <dt>First step judged wrong</dt>
        <dd data-feature="first_wrong_step">{features.first_wrong_step ?? '—'}</dd>
        <dt>Right for a reason judged wrong</dt>
        <dd data-feature="right_for_wrong_reason">{yesNo(features.right_for_wrong_reason)}</dd>
      </dl>
    </section>
  );
}

import { useMemo, type ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { createMentionFinder, type LabelMention } from '../../../../core/common/reasoning/labelMentions';
import { reasoningFeatures } from '../../../../core/common/reasoning/reasoningFeatures';
import { ownStepNumber } from '../../../../core/common/reasoning/reasoningSteps';
import { lastJudgmentPerStep } from '../../../../core/common/reasoning/stepJudgments';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import { useFormatClock } from '../../shared/i18n/useDuration';

/** A text with its label mentions marked (negated ones apart), by the same matcher the export uses. */
function marked(text: string, mentions: readonly LabelMention[], intl: IntlShape): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  mentions.forEach((m, n) => {
    if (m.start > at) out.push(text.slice(at, m.start));
    out.push(
      <mark
        key={n}
        className={m.negated ? 'mention negated' : 'mention'}
        title={intl.formatMessage({ id: m.negated ? 'reasoning.mention.negated' : 'reasoning.mention' }, { label: m.label })}
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

const REWARD_NAMES: Record<string, string> = { '1': 'correct', '0': 'neutral', '-1': 'wrong' };

const yesNo = (v: boolean | null, intl: IntlShape): string =>
  v === null ? '—' : intl.formatMessage({ id: v ? 'reasoning.yes' : 'reasoning.no' });

/**
 * Review: the annotator's think-aloud beside the model's steps, with label mentions marked on both sides, each
 * step's standing judgment and its source, and the deterministic features the export carries.
 */
export function ReasoningSideBySide({ project, state }: { project: ProjectView; state: ItemSessionState }) {
  const intl = useIntl();
  const formatClock = useFormatClock();
  const mentionsIn = useMemo(
    () => createMentionFinder({ labels: project.schema.labels, languages: project.thinkaloud.languages }),
    [project],
  );
  const shown = state.reasoning;
  if (!shown)
    return (
      <p className="muted side-by-side-none">
        <FormattedMessage id="reasoning.notShown" />
      </p>
    );
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
    <section className="side-by-side" aria-label={intl.formatMessage({ id: 'reasoning.sideBySide.label' })}>
      <div className="side human" role="group" aria-label={intl.formatMessage({ id: 'reasoning.sideBySide.human' })}>
        <h3>
          <FormattedMessage id="reasoning.sideBySide.humanTitle" />
        </h3>
        {state.segments.length === 0 ? (
          <p className="muted">
            <FormattedMessage id="reasoning.sideBySide.noTranscript" />
          </p>
        ) : (
          <ol className="utterances">
            {state.segments.map((s, n) => (
              <li key={n}>
                <span className="time">{formatClock(s.t0_ms)}</span> {marked(s.text, mentionsIn(s.text), intl)}
              </li>
            ))}
          </ol>
        )}
        <p className="commitments-line">
          <FormattedMessage
            id="reasoning.sideBySide.commitments"
            values={{
              list:
                state.commitments.length === 0
                  ? intl.formatMessage({ id: 'reasoning.none' })
                  : state.commitments
                      .map((c) => intl.formatMessage({ id: 'reasoning.sideBySide.commitment' }, { quote: c.quote, label: c.label }))
                      .join('; '),
            }}
          />
          {state.signals?.filler_count != null &&
            ` · ${intl.formatMessage({ id: 'reasoning.sideBySide.fillers' }, { count: state.signals.filler_count })}`}
          {state.signals?.pauses &&
            ` · ${intl.formatMessage({ id: 'reasoning.sideBySide.pauses' }, { count: state.signals.pauses.count })}`}
        </p>
        <p>
          <FormattedMessage
            id="reasoning.sideBySide.final"
            values={{
              label: state.final_label ?? intl.formatMessage({ id: 'reasoning.none' }),
              time: intl.formatTime(shown.shown_at, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
              strong: (chunks) => <strong>{chunks}</strong>,
            }}
          />
        </p>
      </div>
      <div className="side model" role="group" aria-label={intl.formatMessage({ id: 'reasoning.sideBySide.model' })}>
        <h3>
          <FormattedMessage id="reasoning.sideBySide.modelTitle" />
        </h3>
        <ol className="model-steps review">
          {shown.steps.map((text, i) => {
            const judged = standing.get(i + 1);
            return (
              <li key={i} data-step={i + 1} data-reward={judged ? String(judged.reward) : ''}>
                <span className="step-text">
                  {ownStepNumber(text) !== i + 1 && <span className="step-number">{i + 1}.</span>}
                  {marked(text, stepMentions[i]!.mentions, intl)}
                </span>
                <span className="step-verdict">
                  {judged
                    ? intl.formatMessage(
                        { id: judged.quote ? 'reasoning.verdict.quoted' : 'reasoning.verdict' },
                        {
                          reward: intl.formatMessage({ id: 'reasoning.reward' }, { reward: REWARD_NAMES[String(judged.reward)] }),
                          source: intl.formatMessage({ id: 'reasoning.source' }, { source: judged.source }),
                          quote: judged.quote,
                        },
                      )
                    : intl.formatMessage({ id: 'reasoning.notJudged' })}
                </span>
              </li>
            );
          })}
        </ol>
        <p>
          <FormattedMessage
            id="reasoning.sideBySide.modelAnswer"
            values={{
              label: shown.model_label ?? intl.formatMessage({ id: 'reasoning.none' }),
              strong: (chunks) => <strong>{chunks}</strong>,
            }}
          />
        </p>
      </div>
      <dl className="reasoning-features" aria-label={intl.formatMessage({ id: 'reasoning.features.label' })}>
        <dt>
          <FormattedMessage id="reasoning.features.humanMentions" />
        </dt>
        <dd>{features.human_labels_mentioned.join(' → ') || '—'}</dd>
        <dt>
          <FormattedMessage id="reasoning.features.modelMentions" />
        </dt>
        <dd>{features.model_labels_mentioned.join(' → ') || '—'}</dd>
        <dt>
          <FormattedMessage id="reasoning.features.finalsAgree" />
        </dt>
        <dd data-feature="finals_agree">{yesNo(features.finals_agree, intl)}</dd>
        <dt>
          <FormattedMessage id="reasoning.features.firstContradicting" />
        </dt>
        <dd data-feature="first_contradicting_step">{features.first_contradicting_step ?? '—'}</dd>
        <dt>
          <FormattedMessage id="reasoning.features.firstWrong" />
        </dt>
        <dd data-feature="first_wrong_step">{features.first_wrong_step ?? '—'}</dd>
        <dt>
          <FormattedMessage id="reasoning.features.rightForWrongReason" />
        </dt>
        <dd data-feature="right_for_wrong_reason">{yesNo(features.right_for_wrong_reason, intl)}</dd>
      </dl>
    </section>
  );
}

import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { SessionUpdate } from '../../../../core/common/session/sessionPatch';
import type { ReasoningView } from '../../../../core/common/reasoning/reasoningReveal';
import { ownStepNumber } from '../../../../core/common/reasoning/reasoningSteps';
import { lastJudgmentPerStep } from '../../../../core/common/reasoning/stepJudgments';
import type { ItemSessionState } from '../../../../core/common/session/itemState';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';

interface Props {
  itemId: string;
  state: ItemSessionState | undefined;
  onSession: (update: SessionUpdate) => void;
  run: RunCall;
}

const VERDICTS = [
  { reward: 1, mark: '✓', name: 'correct' },
  { reward: 0, mark: '○', name: 'neutral' },
  { reward: -1, mark: '✗', name: 'wrong' },
] as const;

/**
 * The model's reasoning beside the item, as the host allows it (aloud.yaml reasoning.reveal): hidden until the
 * annotator's own label exists by default. Asks the host again whenever the blind label appears; the host logs
 * the first showing. Each step can be judged by a click, or by voice ("step three is wrong").
 */
export function ModelReasoningPanel({ itemId, state, onSession, run }: Props) {
  const client = useApi();
  const intl = useIntl();
  const [view, setView] = useState<ReasoningView | null>(null);
  const blind = state?.blind_label ?? null;

  useEffect(() => {
    let live = true;
    setView(null);
    void client.showReasoning().then(
      (v) => {
        if (live && v.item_id === itemId) setView(v);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, itemId, blind]);

  // the view of the item shown, never the one before it (the new item's view is on its way)
  if (!view || view.item_id !== itemId || view.withheld === 'no_reasoning' || view.withheld === 'never') return null;
  if (view.withheld === 'blind_label_first' || !view.shown) {
    return (
      <aside className="model-reasoning withheld" aria-label={intl.formatMessage({ id: 'reasoning.panel.label' })}>
        <FormattedMessage id="reasoning.panel.withheld" />
      </aside>
    );
  }
  const standing = lastJudgmentPerStep(state?.step_judgments ?? []);
  const judge = async (index: number, reward: 1 | 0 | -1 | null): Promise<void> => {
    const next = await run(() => client.judgeStep(index, reward, 'click'));
    if (next) onSession(next);
  };
  return (
    <aside className="model-reasoning" aria-label={intl.formatMessage({ id: 'reasoning.panel.label' })}>
      <h3>
        <FormattedMessage id="reasoning.panel.title" />
        {view.shown.model_label && (
          <>
            {' '}
            <FormattedMessage
              id="reasoning.panel.answer"
              values={{ label: view.shown.model_label, strong: (chunks) => <strong className="model-label">{chunks}</strong> }}
            />
          </>
        )}
      </h3>
      <ol className="model-steps">
        {view.shown.steps.map((text, i) => {
          const index = i + 1;
          const judged = standing.get(index);
          return (
            <li key={index} className="model-step" data-step={index} data-reward={judged ? String(judged.reward) : ''}>
              <span className="step-text">
                {/* "step three" must be findable: a step the text does not number itself gets its number */}
                {ownStepNumber(text) !== index && <span className="step-number">{index}.</span>}
                {text}
              </span>
              <span className="step-judge" role="group" aria-label={intl.formatMessage({ id: 'reasoning.step.judge' }, { index })}>
                {VERDICTS.map((v) => (
                  <button
                    key={v.reward}
                    aria-pressed={judged?.reward === v.reward}
                    data-verdict={v.name}
                    title={intl.formatMessage({ id: 'reasoning.step.verdictTitle' }, { index, verdict: v.name })}
                    onClick={() => void judge(index, judged?.reward === v.reward ? null : v.reward)}
                  >
                    {v.mark}
                  </button>
                ))}
                {judged && (
                  <span className="step-source">
                    <FormattedMessage id="reasoning.step.by" values={{ source: judged.source }} />
                  </span>
                )}
              </span>
            </li>
          );
        })}
      </ol>
    </aside>
  );
}

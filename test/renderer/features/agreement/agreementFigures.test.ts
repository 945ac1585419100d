/**
 * The Agreement tab words in the interface language what the host computes in English (the CLI and the report keep
 * English): in English its sentences must be the host's, word for word, or the tab and `aloud gold` would disagree.
 */
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { agreementAnalysis } from '../../../../core/common/agreement/agreementAnalysis';
import { describeModelFit, goldReport } from '../../../../core/common/labelModels/goldReport';
import type { ModelFitComparison } from '../../../../core/common/labelModels/heldOutFit';
import { LABEL_MODELS } from '../../../../core/common/labelModels/labelModel';
import { intervalText, modelFitWords } from '../../../../renderer/src/features/agreement/agreementFigures';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

const en = createIntl({ locale: 'en', messages: appCatalogs.en });
const de = createIntl({ locale: 'de', messages: appCatalogs.de });

const fit = (scores: ModelFitComparison['scores']): ModelFitComparison => ({
  method: 'x',
  folds: 5,
  annotations: 60,
  seed: 1,
  scores,
  best: scores[0]?.model ?? 'majority',
});
const score = (model: ModelFitComparison['best'], ll: number, behind: number, ci: [number, number] | null) => ({
  model,
  log_likelihood: ll,
  per_annotation: ll / 60,
  behind_best: behind,
  behind_best_ci95: ci,
});

describe('Agreement tab figures in the interface language', () => {
  it('says the model comparison as the host does, in English', () => {
    for (const f of [
      fit([]),
      fit([score('mace', -40, 0, null)]),
      fit([score('mace', -40, 0, null), score('majority', -52.5, 0.2083, [0.1, 0.31])]),
      fit([score('dawid-skene', -38, 0, null), score('mace', -40, 0.0333, [-0.01, 0.08]), score('majority', -52.5, 0.2417, null)]),
    ])
      expect(modelFitWords(en, f)).toBe(describeModelFit(f));
    expect(modelFitWords(de, fit([score('mace', -40, 0, null), score('majority', -52.5, 0.2083, [0.1, 0.31])]))).toBe(
      'mace passt am besten auf zurückgehaltene Labels (-0,667 nats pro Annotation, 5-fache Kreuzvalidierung); es schlägt majority um 0,208 nats pro Annotation (95\u00a0% [0,100; 0,310])',
    );
  });

  it('names the interval methods as the host does, in English', () => {
    const records = ['a', 'b', 'c'].flatMap((annotator, k) =>
      ['i1', 'i2', 'i3'].map((item_id, n) => ({ item_id, annotator, blind_label: null, final_label: (n + k) % 2 ? 'P' : 'I' })),
    );
    const analysis = agreementAnalysis(records, { level: 'nominal', categories: ['P', 'I'], hasBlind: false, itemIds: ['i1', 'i2', 'i3'] });
    expect(en.formatMessage({ id: 'agreement.bootstrapMethod' })).toBe(analysis.bootstrap.method);
    const annotations = records.map((r) => ({ item_id: r.item_id, annotator: r.annotator, label: r.final_label }));
    for (const model of LABEL_MODELS) {
      const report = goldReport(annotations, { model, resamples: 5 });
      expect(en.formatMessage({ id: 'agreement.gold.method' }, { model }), model).toBe(report.intervals.method);
    }
  });

  it('writes an interval so a decimal comma cannot be misread', () => {
    expect(intervalText(en, [0.1, 0.25])).toBe('[0.100, 0.250]');
    expect(intervalText(de, [0.1, 0.25])).toBe('[0,100; 0,250]');
  });
});

import { describe, expect, it } from 'vitest';
import { agreementReport } from '../../../../core/common/agreement/agreementReport';
import type { LabelSchema } from '../../../../core/common/project/projectConfig';

const schema: LabelSchema = {
  name: 'politeness',
  ordered: false,
  labels: [
    { name: 'Polite', synonyms: {} },
    { name: 'Impolite', synonyms: {} },
    { name: 'Neutral', synonyms: {} },
  ],
};
const s = (item_id: string, blind_label: string | null, final_label: string | null) => ({ item_id, blind_label, final_label });

describe('agreementReport', () => {
  it('computes alpha separately on blind and final labels', () => {
    const report = agreementReport(
      schema,
      ['i1', 'i2', 'i3'],
      [
        { annotator: 'ana', items: [s('i1', 'Polite', 'Polite'), s('i2', 'Impolite', 'Impolite'), s('i3', 'Neutral', 'Neutral')] },
        { annotator: 'ben', items: [s('i1', 'Polite', 'Polite'), s('i2', 'Polite', 'Impolite'), s('i3', 'Neutral', 'Neutral')] },
      ],
    );
    expect(report.final.alpha).toBe(1);
    // blind units (P,P) (I,P) (N,N): n=6, n_P=3 n_I=1 n_N=2, Do=2/6, De=2·(3+6+2)/30 → alpha = 1 − (1/3)/(22/30) = 12/22
    expect(report.blind.alpha).toBeCloseTo(12 / 22, 10);
    expect(report.table[1]).toEqual({
      item_id: 'i2',
      labels: { ana: { blind: 'Impolite', final: 'Impolite' }, ben: { blind: 'Polite', final: 'Impolite' } },
    });
  });

  it('treats unlabelled items, labels outside the schema and unknown items as missing', () => {
    const report = agreementReport(
      schema,
      ['i1', 'i2'],
      [
        { annotator: 'ana', items: [s('i1', 'Polite', 'Polite'), s('i2', 'Snarky', 'Snarky'), s('gone', 'Polite', 'Polite')] },
        { annotator: 'ben', items: [s('i1', 'Polite', 'Polite'), s('i2', null, null)] },
      ],
    );
    expect(report.table[1]!.labels.ana).toEqual({ blind: null, final: null });
    expect(report.final.pairable_units).toBe(1);
    expect(report.final.alpha).toBeNull(); // one pairable unit without variation: undefined, never a made-up 1
  });

  it('uses the ordinal metric for an ordered schema', () => {
    const ordered: LabelSchema = { ...schema, ordered: true };
    expect(agreementReport(ordered, [], []).final.level).toBe('ordinal');
  });
});

import { describe, expect, it } from 'vitest';
import { agreementAnalysis, finalLabelDisagreements, type LabelRecord } from '../../../../core/common/agreement/agreementAnalysis';
import { seededRandom } from '../../../../core/common/agreement/krippendorff';

describe('finalLabelDisagreements', () => {
  it('is the disagreement list of the full analysis, without computing alpha', () => {
    const random = seededRandom(4);
    const labels = ['Polite', 'Impolite', 'Neutral', 'Renamed'];
    const records: LabelRecord[] = [];
    for (let i = 0; i < 400; i++) {
      for (const annotator of ['ana', 'ben', 'cleo', 'dan']) {
        if (random() < 0.15) continue;
        const pick = () => (random() < 0.1 ? null : labels[Math.floor(random() * labels.length)]!);
        records.push({ item_id: `item-${i % 350}-${Math.floor(i / 350)}`, annotator, blind_label: pick(), final_label: pick() });
      }
    }
    const options = {
      level: 'nominal' as const,
      categories: ['Polite', 'Impolite', 'Neutral'],
      hasBlind: true,
      itemIds: ['item-7-0', 'item-3-0'],
    };
    const full = agreementAnalysis(records, options).disagreements;
    expect(full.length).toBeGreaterThan(100);
    expect(finalLabelDisagreements(records, options)).toEqual(full);
    const { itemIds: _ids, ...withoutOrder } = options;
    expect(finalLabelDisagreements(records, withoutOrder)).toEqual(agreementAnalysis(records, withoutOrder).disagreements);
  });
});

import { describe, expect, it } from 'vitest';
import type { AgreementReport } from '../../../../core/common/agreement/agreementApi';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { krippendorffAlpha } from '../../../../core/common/agreement/krippendorff';
import { analyseReport } from '../../../../renderer/src/features/agreement/AgreementScreen';

const project = {
  name: 'p',
  schema: {
    name: 's',
    ordered: false,
    labels: [
      { name: 'Polite', synonyms: {} },
      { name: 'Impolite', synonyms: {} },
    ],
  },
  items: [
    { id: 'i1', text: 'a' },
    { id: 'i2', text: 'b' },
    { id: 'i3', text: 'c' },
  ],
} as unknown as ProjectView;
const l = (blind: string | null, final: string | null) => ({ blind, final });
const report = (table: AgreementReport['table']): AgreementReport => ({
  annotators: ['ana', 'ben'],
  items: 3,
  blind: krippendorffAlpha([], ['Polite', 'Impolite']),
  final: krippendorffAlpha([], ['Polite', 'Impolite']),
  table,
  time_on_item: { idle_gap_ms: 120_000, annotators: [], items: [] },
});

describe('the Agreement screen analysis', () => {
  it('one pairable item is "not enough data", not α 0.000', () => {
    const a = analyseReport(
      report([
        { item_id: 'i1', labels: { ana: l('Polite', 'Polite'), ben: l('Impolite', 'Impolite') } },
        { item_id: 'i2', labels: { ana: l('Polite', 'Polite'), ben: l(null, null) } },
      ]),
      project,
    );
    expect(a.alpha_final).toBeNull();
    expect(a.final.undefined_reason).toBe('fewer_than_two_pairable_units');
    expect(a.disagreements.map((d) => d.item_id)).toEqual(['i1']);
  });

  it('lists disagreements and who changed toward the others', () => {
    const a = analyseReport(
      report([
        { item_id: 'i1', labels: { ana: l('Polite', 'Polite'), ben: l('Impolite', 'Polite') } },
        { item_id: 'i2', labels: { ana: l('Impolite', 'Impolite'), ben: l('Polite', 'Polite') } },
        { item_id: 'i3', labels: { ana: l('Polite', 'Polite'), ben: l('Polite', 'Polite') } },
      ]),
      project,
    );
    expect(a.disagreements.map((d) => d.item_id)).toEqual(['i2']);
    expect(a.annotators).toEqual([
      { annotator: 'ana', labels: 3, changes: 0, changes_toward_majority: 0 },
      { annotator: 'ben', labels: 3, changes: 1, changes_toward_majority: 1 },
    ]);
    expect(a.ci95_final).not.toBeNull();
  });
});

import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { exportSummaryWords } from '../../../../renderer/src/features/export/exportSummary';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

const base = { file: '/x.jsonl', receipt: '/x.jsonl.receipt.json', sha256: '0'.repeat(64), gaps: 25, records: 26 };
const en = createIntl({ locale: 'en', messages: appCatalogs.en });
const de = createIntl({ locale: 'de', messages: appCatalogs.de });

describe('export summary in words', () => {
  it("uses the export's own sentence and names whose sessions it holds", () => {
    expect(exportSummaryWords({ ...base, summary: '26 records; 12 have no audio, 13 have no label', annotators: ['ana', 'kim'] }, en)).toBe(
      'Exported 26 records; 12 have no audio, 13 have no label (ana, kim).',
    );
    expect(exportSummaryWords({ ...base, summary: '2 records; nothing missing' }, en)).toBe('Exported 2 records; nothing missing.');
  });

  it('frames it in the interface language', () => {
    expect(exportSummaryWords({ ...base, summary: '2 records; nothing missing', annotators: ['ana'] }, de)).toBe(
      'Exportiert: 2 records; nothing missing (ana).',
    );
  });
});

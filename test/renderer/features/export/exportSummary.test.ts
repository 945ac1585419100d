import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { describeDeidentification, type DeidentificationReceipt } from '../../../../core/common/deidentified/deidentifyReceipt';
import { describeExportGaps, type ExportGap, type ExportGapReason } from '../../../../core/common/export/exportRecord';
import { exportSummaryFacts } from '../../../../core/common/export/exportSummaryFacts';
import { exportFactsWords, exportSummaryWords } from '../../../../renderer/src/features/export/exportSummary';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

const en = createIntl({ locale: 'en', messages: appCatalogs.en });
const de = createIntl({ locale: 'de', messages: appCatalogs.de });

const gaps = (counts: Partial<Record<ExportGapReason, number>>): ExportGap[] =>
  Object.entries(counts).flatMap(([reason, n]) =>
    Array.from({ length: n }, (_, i) => ({ annotator: 'ana', item_id: `i${i}`, reason: reason as ExportGapReason })),
  );

const deidentification = {
  deidentified: true,
  method: 'list',
  list_version: '3',
  list_sha256: '0'.repeat(64),
  terms: 4,
  patterns: [],
  languages: ['en'],
  audio: 'tone',
  margin_ms: 120,
  spans_by_class: { person: 3, place: 1 },
  review: { accepted: 0, rejected: 0, added: 0 },
  hidden_audio: [],
} as DeidentificationReceipt;

const summary = (facts: ReturnType<typeof exportSummaryFacts>, annotators?: string[]) => ({
  file: '/x.jsonl',
  receipt: '/x.jsonl.receipt.json',
  sha256: '0'.repeat(64),
  gaps: 0,
  records: facts.records,
  summary: 'the English the CLI prints',
  facts,
  ...(annotators ? { annotators } : {}),
});

describe('export summary in words', () => {
  it("says in English exactly what the host's summary says (the CLI's words)", () => {
    for (const [records, counts] of [
      [26, { no_audio: 12, no_label: 13 }],
      [2, {}],
      [1, { no_transcript: 1 }],
      [9, { no_audio: 1, audio_file_missing: 2, no_transcript: 3, no_label: 4 }],
    ] as const) {
      const receipt = { records, gaps: gaps(counts) };
      expect(exportFactsWords(exportSummaryFacts(receipt, { notDeidentified: false }), en)).toBe(describeExportGaps(records, receipt.gaps));
    }
    const hidden = { records: 2, gaps: [], deidentification };
    expect(exportFactsWords(exportSummaryFacts(hidden, { notDeidentified: false }), en)).toBe(
      `${describeExportGaps(2, [])}; ${describeDeidentification(deidentification)}`,
    );
    expect(exportFactsWords(exportSummaryFacts({ records: 2, gaps: [] }, { notDeidentified: true }), en)).toBe(
      '2 records; nothing missing; NOT de-identified (the project has deidentify.yaml)',
    );
    const interop = { interop: { recordings: 12, annotators: 2, files: 25 }, notDeidentified: false };
    expect(exportFactsWords(exportSummaryFacts({ records: 20, gaps: gaps({ no_audio: 8 }) }, interop), en)).toBe(
      '12 recordings of 2 annotators in 25 files; 8 records without audio not in them',
    );
    expect(
      exportFactsWords(
        exportSummaryFacts({ records: 1, gaps: [] }, { ...interop, interop: { recordings: 1, annotators: 1, files: 1 } }),
        en,
      ),
    ).toBe('1 recording of 1 annotator in 1 file');
  });

  it('says it all in German in German', () => {
    const facts = exportSummaryFacts(
      { records: 26, gaps: gaps({ no_audio: 12, no_label: 13 }), deidentification },
      { notDeidentified: false },
    );
    expect(exportSummaryWords(summary(facts, ['ana', 'kim']), de)).toBe(
      'Exportiert: 26 Datensätze; 12 ohne Audio, 13 ohne Label; de-identifiziert (Listenversion 3: 3 person, 1 place; Audio: Ton, Rand 120 ms) (ana, kim).',
    );
    expect(exportSummaryWords(summary(exportSummaryFacts({ records: 1, gaps: [] }, { notDeidentified: true })), de)).toBe(
      'Exportiert: 1 Datensatz; nichts fehlt; NICHT de-identifiziert (das Projekt hat eine deidentify.yaml).',
    );
    const interop = exportSummaryFacts(
      { records: 2_000, gaps: [] },
      { interop: { recordings: 1_500, annotators: 3, files: 1_504 }, notDeidentified: false },
    );
    expect(exportFactsWords(interop, de)).toBe(
      '1.500 Aufnahmen von 3 Annotatoren in 1.504 Dateien; 500 Datensätze ohne Audio nicht enthalten',
    );
  });

  it('names whose sessions it holds, in the frame of the interface language', () => {
    const facts = exportSummaryFacts({ records: 2, gaps: [] }, { notDeidentified: false });
    expect(exportSummaryWords(summary(facts), en)).toBe('Exported 2 records; nothing missing.');
    expect(exportSummaryWords(summary(facts, ['ana']), en)).toBe('Exported 2 records; nothing missing (ana).');
  });
});

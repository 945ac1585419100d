import type { CodeDef } from '../../codebook/codebook';
import { DEIDENTIFIED_SENTENCE } from '../../deidentified/deidentifiedMark';
import { codebookGuids, codebookTree } from '../../codebook/qdaCodebook';
import { protocolUnits } from '../../coding/codingUnits';
import { commitmentUtf16Span, type ExportRecord } from '../exportRecord';
import { codePointOffset } from '../../text/codePoints';
import { joinSegments, timeAtOffset } from '../../transcript/joinSegments';
import { escapeXmlText, xmlAttributes } from '../../io/xmlText';

export const QDA_PROJECT_NAMESPACE = 'urn:QDA-XML:project:1.0';

/** One file the .qdpx carries in its Sources/ folder, named by GUID as the standard says ("internal://<guid>.<ext>"). */
export interface QdpxSourceFile {
  /** path inside the zip: Sources/<guid>.<ext> */
  path: string;
  /** text to write as UTF-8, or the project-relative WAV to copy */
  content: { text: string } | { wav: string };
}

export interface QdpxInput {
  project: string;
  labels: ReadonlyArray<{ name: string; synonyms: Record<string, string[]> }>;
  items: ReadonlyArray<{ id: string; text: string; context?: string }>;
  /** every record of the export; those with audio become AudioSources */
  records: readonly ExportRecord[];
  /** the project's codebook (codebook.yaml): its codes join the labels in the CodeBook, nested as there; null: none */
  codebook?: { codes: readonly CodeDef[]; version: string } | null;
  /** a stable GUID for a key (the same key gives the same GUID in every export) */
  guidOf: (key: string) => string;
  appVersion: string;
  createdAt: string;
  /** a de-identified export: the Project's Description says so, so a copy without its receipt is still checked */
  deidentified?: boolean;
}

/** A variable on sources and cases: its name, REFI type and description. */
interface QdaVariable {
  name: string;
  type: 'Text' | 'Integer';
  description: string;
}

const VARIABLES: readonly QdaVariable[] = [
  { name: 'annotator', type: 'Text', description: 'whose think-aloud this is' },
  { name: 'item_id', type: 'Text', description: 'the project item (recordings only)' },
  { name: 'final_label', type: 'Text', description: 'the last label act of the item (recordings only)' },
  { name: 'blind_label', type: 'Text', description: "the first label act, before any change or the model's reasoning (recordings only)" },
  {
    name: 'label_source',
    type: 'Text',
    description: 'how the final label was given: voice, click, key, correction or room (recordings only)',
  },
  {
    name: 'filler_count',
    type: 'Integer',
    description: 'fillers heard (the legacy single list, aloud.yaml thinkaloud.fillers); on a case, over all its recordings',
  },
  {
    name: 'filled_pause_count',
    type: 'Integer',
    description: "filled pauses (um, uh, äh) of the transcript's language; on a case, the sum",
  },
  { name: 'hedge_count', type: 'Integer', description: 'hedges (maybe, I think, vielleicht); on a case, the sum' },
  { name: 'repetition_count', type: 'Integer', description: 'words said again at once ("I, I"); on a case, the sum' },
  { name: 'editing_term_count', type: 'Integer', description: 'editing terms (no wait, I mean, ich meine); on a case, the sum' },
  { name: 'hesitation_language', type: 'Text', description: 'the language whose hesitation lists counted (recordings only)' },
  { name: 'pause_count', type: 'Integer', description: 'energy pauses of at least min_pause_ms between speech; on a case, the sum' },
  { name: 'long_pause_count', type: 'Integer', description: 'energy pauses of at least long_pause_ms; on a case, the sum' },
  {
    name: 'vad_pause_count',
    type: 'Integer',
    description: 'voice-activity (Silero VAD) pauses, when the VAD ran; on a case, the sum over those',
  },
  { name: 'model', type: 'Text', description: 'the whisper model that transcribed it (on a case: every model, comma separated)' },
  { name: 'items_recorded', type: 'Integer', description: 'recordings of the case' },
  { name: 'items_with_final_label', type: 'Integer', description: 'items of the case with a final label' },
];

type VariableValues = Partial<Record<string, string | number | null>>;

const internal = (guid: string, ext: string): string => `internal://${guid}.${ext}`;

/**
 * A REFI-QDA project (QDA-XML 1.0, `project.qde`) and the files of its Sources/ folder: a User and a Case per
 * annotator, the labels as codable Codes, each item's text as a TextSource, each recording as an AudioSource with
 * its verbatim Transcript (SyncPoints at every segment's start and end and at each commit phrase), and each commit
 * phrase a TranscriptSelection coded with its label. Variables describe recordings and cases.
 */
export function qdpxProject(input: QdpxInput): { xml: string; files: QdpxSourceFile[] } {
  const { guidOf } = input;
  const files: QdpxSourceFile[] = [];
  const annotators = [...new Set(input.records.map((r) => r.annotator))];
  // coders are users too: their codings name them as creatingUser
  const coders = [...new Set(input.records.flatMap((r) => r.codings?.coders.map((c) => c.coder) ?? []))].filter(
    (c) => !annotators.includes(c),
  );
  const userGuid = new Map([...annotators, ...coders].map((a) => [a, guidOf(`user:${a}`)]));
  const codeDefs = codebookCodes(input);
  const codebookGuid = codebookGuids(codeDefs, guidOf);
  const notes: string[] = [];
  const labelNames = [
    ...new Set([...input.labels.map((l) => l.name), ...input.records.flatMap((r) => r.label_history.map((h) => h.label))]),
  ];
  const codeGuid = new Map(labelNames.map((l) => [l, guidOf(`code:label:${l}`)]));
  const variableGuid = new Map(VARIABLES.map((v) => [v.name, guidOf(`variable:${v.name}`)]));
  const out: string[] = [];

  const variableValues = (values: VariableValues, indent: string): string[] =>
    VARIABLES.flatMap((v) => {
      const value = values[v.name];
      if (value === undefined || value === null) return [];
      const element =
        v.type === 'Integer' ? `<IntegerValue>${value}</IntegerValue>` : `<TextValue>${escapeXmlText(String(value))}</TextValue>`;
      return [`${indent}<VariableValue><VariableRef${xmlAttributes({ targetGUID: variableGuid.get(v.name) })}/>${element}</VariableValue>`];
    });

  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<Project${xmlAttributes({ xmlns: QDA_PROJECT_NAMESPACE, name: input.project, origin: `Aloud ${input.appVersion}`, creationDateTime: input.createdAt })}>`,
  );
  out.push(
    '  <Users>',
    ...[...annotators, ...coders].map((a) => `    <User${xmlAttributes({ guid: userGuid.get(a), name: a })}/>`),
    '  </Users>',
  );
  out.push('  <CodeBook>', '    <Codes>');
  for (const label of labelNames) {
    const def = input.labels.find((l) => l.name === label);
    const synonyms = def
      ? Object.entries(def.synonyms)
          .map(([lang, words]) => `${lang}: ${words.join(', ')}`)
          .join('; ')
      : '';
    const description = def
      ? `Label of the project's schema${synonyms ? ` (synonyms ${synonyms})` : ''}`
      : "A label in the sessions that the project's schema no longer has";
    out.push(
      `      <Code${xmlAttributes({ guid: codeGuid.get(label), name: label, isCodable: true })}><Description>${escapeXmlText(description)}</Description></Code>`,
    );
  }
  out.push(...codebookTree(codeDefs, codebookGuid, '      '));
  out.push('    </Codes>', '  </CodeBook>');
  out.push(
    '  <Variables>',
    ...VARIABLES.map(
      (v) =>
        `    <Variable${xmlAttributes({ guid: variableGuid.get(v.name), name: v.name, typeOfVariable: v.type })}><Description>${escapeXmlText(v.description)}</Description></Variable>`,
    ),
    '  </Variables>',
  );

  const recorded = input.records.filter((r) => r.audio !== null);
  const sourceGuid = (r: ExportRecord): string => guidOf(`audio:${r.annotator}:${r.item_id}`);
  out.push('  <Cases>');
  for (const annotator of annotators) {
    const own = recorded.filter((r) => r.annotator === annotator);
    const sum = (pick: (r: ExportRecord) => number | null | undefined): number | null => {
      const values = own.map(pick).filter((v): v is number => typeof v === 'number');
      return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
    };
    out.push(`    <Case${xmlAttributes({ guid: guidOf(`case:${annotator}`), name: annotator })}>`);
    out.push(
      ...variableValues(
        {
          annotator,
          items_recorded: own.length,
          items_with_final_label: input.records.filter((r) => r.annotator === annotator && r.final_label !== null).length,
          filler_count: sum((r) => r.signals?.filler_count),
          filled_pause_count: sum((r) => r.signals?.filled_pause_count),
          hedge_count: sum((r) => r.signals?.hedge_count),
          repetition_count: sum((r) => r.signals?.repetition_count),
          editing_term_count: sum((r) => r.signals?.editing_term_count),
          pause_count: sum((r) => r.signals?.pauses?.count),
          long_pause_count: sum((r) => r.signals?.pauses?.long_count),
          vad_pause_count: sum((r) => r.signals?.vad_pauses?.count),
          model: [...new Set(own.flatMap((r) => (r.model ? [r.model.name] : [])))].join(', ') || null,
        },
        '      ',
      ),
    );
    out.push(...own.map((r) => `      <SourceRef${xmlAttributes({ targetGUID: sourceGuid(r) })}/>`));
    out.push('    </Case>');
  }
  out.push('  </Cases>');

  out.push('  <Sources>');
  for (const item of input.items) {
    const guid = guidOf(`text:${item.id}`);
    files.push({ path: `Sources/${guid}.txt`, content: { text: item.text } });
    out.push(
      `    <TextSource${xmlAttributes({ guid, name: item.id, plainTextPath: internal(guid, 'txt'), creationDateTime: input.createdAt })}>`,
    );
    if (item.context !== undefined) out.push(`      <Description>${escapeXmlText(`In reply to: ${item.context}`)}</Description>`);
    out.push(...variableValues({ item_id: item.id }, '      '), '    </TextSource>');
  }
  for (const r of recorded) {
    const guid = sourceGuid(r);
    const user = userGuid.get(r.annotator);
    files.push({ path: `Sources/${guid}.wav`, content: { wav: r.audio!.path } });
    out.push(
      `    <AudioSource${xmlAttributes({ guid, name: `${r.annotator} / ${r.item_id}`, path: internal(guid, 'wav'), creatingUser: user, creationDateTime: r.started_at ?? input.createdAt })}>`,
    );
    out.push(
      `      <Description>${escapeXmlText(`${r.annotator} thinking aloud on item ${r.item_id} (${r.audio!.duration_ms} ms, sha256 ${r.audio!.sha256 ?? 'unknown'})`)}</Description>`,
    );
    if (r.transcript !== null)
      out.push(
        ...transcriptElement(r, guidOf, codeGuid, user, files, { codes: codebookGuid, users: userGuid, notes, createdAt: input.createdAt }),
      );
    out.push(
      ...variableValues(
        {
          annotator: r.annotator,
          item_id: r.item_id,
          final_label: r.final_label,
          blind_label: r.blind_label,
          label_source: r.label_source,
          filler_count: r.signals?.filler_count ?? null,
          filled_pause_count: r.signals?.filled_pause_count ?? null,
          hedge_count: r.signals?.hedge_count ?? null,
          repetition_count: r.signals?.repetition_count ?? null,
          editing_term_count: r.signals?.editing_term_count ?? null,
          hesitation_language: r.signals?.hesitation_language ?? null,
          pause_count: r.signals?.pauses?.count ?? null,
          long_pause_count: r.signals?.pauses?.long_count ?? null,
          vad_pause_count: r.signals?.vad_pauses?.count ?? null,
          model: r.model?.name ?? null,
        },
        '      ',
      ),
    );
    out.push('    </AudioSource>');
  }
  out.push('  </Sources>');
  if (notes.length > 0) out.push('  <Notes>', ...notes, '  </Notes>');
  out.push(
    `  <Description>${escapeXmlText(`Exported by Aloud ${input.appVersion} at ${input.createdAt}: think-aloud recordings with verbatim transcripts; commit phrases coded with their label${codeDefs.length > 0 ? `; the protocols' units coded with the codebook${input.codebook ? ` (version ${input.codebook.version})` : ''} by their coders` : ''}.${input.deidentified ? ` ${DEIDENTIFIED_SENTENCE}.` : ''}`)}</Description>`,
  );
  out.push('</Project>', '');
  return { xml: out.join('\n'), files };
}

/** The codebook's codes and any code the codings use that the codebook no longer has (at the top, described so). */
function codebookCodes(input: QdpxInput): CodeDef[] {
  const codes: CodeDef[] = [...(input.codebook?.codes ?? [])];
  const known = new Set(codes.map((c) => c.name));
  for (const r of input.records) {
    for (const u of r.codings?.units ?? []) {
      for (const given of Object.values(u.codes)) {
        for (const c of given) {
          if (known.has(c.code)) continue;
          known.add(c.code);
          codes.push({ name: c.code, definition: "a code in the codings that the project's codebook no longer has" });
        }
      }
    }
  }
  return codes;
}

interface CodingTargets {
  codes: ReadonlyMap<string, string>;
  users: ReadonlyMap<string, string>;
  /** Note elements collected for the project's Notes (the coders' memos) */
  notes: string[];
  createdAt: string;
}

function transcriptElement(
  r: ExportRecord,
  guidOf: (key: string) => string,
  codeGuid: ReadonlyMap<string, string>,
  user: string | undefined,
  files: QdpxSourceFile[],
  coding: CodingTargets,
): string[] {
  const text = r.transcript!;
  const guid = guidOf(`transcript:${r.annotator}:${r.item_id}`);
  files.push({ path: `Sources/${guid}.txt`, content: { text } });
  const { spans } = joinSegments(r.segments);
  // one sync point per (position, time): segments' ends and starts and the commit phrases' edges
  const points = new Map<string, { position: number; time: number }>();
  // positions in a REFI text are counted in characters (Unicode code points), as the export records count them
  const point = (offset: number, time: number): string => {
    const position = codePointOffset(text, offset);
    const ms = Math.round(time);
    const key = `${position}@${ms}`;
    if (!points.has(key)) points.set(key, { position, time: ms });
    return key;
  };
  for (const s of spans) {
    point(s.start, s.t0_ms);
    point(s.end, s.t1_ms);
  }
  const selections = r.commitments.map((c, i) => {
    const at = commitmentUtf16Span(text, c, r.schema_version);
    const endTime = c.t_ms ?? timeAtOffset(spans, at.end) ?? 0;
    const from = point(at.start, Math.min(timeAtOffset(spans, at.start) ?? 0, endTime));
    const to = point(at.end, endTime);
    return { c, i, from, to };
  });
  // the units of the current transcript that coders coded: a selection each, from its first to its last character
  const offsets = r.codings
    ? new Map(protocolUnits(r.item_id, r.segments, r.codings.unit_kind).map((u) => [`${u.unit}\u0000${u.text}`, u]))
    : new Map();
  const unitSelections = (r.codings?.units ?? []).flatMap((u) => {
    const at = offsets.get(`${u.unit}\u0000${u.text}`);
    if (!u.current || !at || Object.values(u.codes).every((c) => c.length === 0)) return [];
    return [
      { u, from: point(at.start, timeAtOffset(spans, at.start) ?? u.t0_ms), to: point(at.end, timeAtOffset(spans, at.end) ?? u.t1_ms) },
    ];
  });
  const pointGuid = (key: string): string => guidOf(`sync:${r.annotator}:${r.item_id}:${key}`);
  const lines = [
    `      <Transcript${xmlAttributes({ guid, name: `${r.annotator} / ${r.item_id} (verbatim)`, plainTextPath: internal(guid, 'txt') })}>`,
  ];
  const ordered = [...points.entries()].sort((a, b) => a[1].position - b[1].position || a[1].time - b[1].time);
  for (const [key, p] of ordered)
    lines.push(`        <SyncPoint${xmlAttributes({ guid: pointGuid(key), timeStamp: p.time, position: p.position })}/>`);
  for (const { c, i, from, to } of selections) {
    const code = codeGuid.get(c.label);
    lines.push(
      `        <TranscriptSelection${xmlAttributes({ guid: guidOf(`selection:${r.annotator}:${r.item_id}:${i}`), name: c.quote, fromSyncPoint: pointGuid(from), toSyncPoint: pointGuid(to), creatingUser: user })}>`,
    );
    if (code)
      lines.push(
        `          <Coding${xmlAttributes({ guid: guidOf(`coding:${r.annotator}:${r.item_id}:${i}`), creatingUser: user })}><CodeRef${xmlAttributes({ targetGUID: code })}/></Coding>`,
      );
    lines.push('        </TranscriptSelection>');
  }
  for (const { u, from, to } of unitSelections) {
    const key = `${r.annotator}:${r.item_id}:${u.unit}`;
    lines.push(
      `        <TranscriptSelection${xmlAttributes({ guid: guidOf(`unit:${key}`), name: `${u.unit}: ${u.text}`, fromSyncPoint: pointGuid(from), toSyncPoint: pointGuid(to) })}>`,
    );
    for (const [coder, given] of Object.entries(u.codes)) {
      for (const c of given) {
        const codingKey = `${key}:${coder}:${c.code}`;
        const noteRef = c.memo === null ? '' : `<NoteRef${xmlAttributes({ targetGUID: guidOf(`memo:${codingKey}`) })}/>`;
        lines.push(
          `          <Coding${xmlAttributes({ guid: guidOf(`coding:unit:${codingKey}`), creatingUser: coding.users.get(coder), creationDateTime: c.applied_at })}><CodeRef${xmlAttributes({ targetGUID: coding.codes.get(c.code) })}/>${noteRef}</Coding>`,
        );
        if (c.memo !== null) {
          coding.notes.push(
            `    <Note${xmlAttributes({ guid: guidOf(`memo:${codingKey}`), name: `${coder}: ${c.code} on ${r.annotator} / ${r.item_id} ${u.unit}`, creatingUser: coding.users.get(coder), creationDateTime: c.applied_at })}><PlainTextContent>${escapeXmlText(c.memo)}</PlainTextContent></Note>`,
          );
        }
      }
    }
    lines.push('        </TranscriptSelection>');
  }
  lines.push('      </Transcript>');
  return lines;
}

import type { ItemTimeline, TimedSpan, TimelineTier } from './itemTimeline';
import { escapeXmlText, xmlAttributes } from '../../io/xmlText';

/** How long an instant lasts in ELAN, which has no point annotations: up to the next instant of its tier, at most this. */
export const EAF_INSTANT_MS = 100;

export interface EafHeader {
  /** the annotator */
  author: string;
  /** ISO 8601 time of the export */
  date: string;
  /** absolute file: URL of the copied WAV (what ELAN writes), and the same relative to the .eaf */
  mediaUrl: string;
  relativeMediaUrl: string;
  /** extra HEADER properties (project, item, app version), in this order */
  properties: ReadonlyArray<readonly [string, string]>;
}

const STANDARD_CONSTRAINTS: ReadonlyArray<readonly [string, string]> = [
  ['Time_Subdivision', "Time subdivision of parent annotation's time interval, no time gaps allowed within this interval"],
  ['Symbolic_Subdivision', 'Symbolic subdivision of a parent annotation. Annotations refering to the same parent are ordered'],
  ['Symbolic_Association', '1-1 association with a parent annotation'],
  ['Included_In', "Time alignable annotations within the parent annotation's time interval, gaps are allowed"],
];

/** The spans of a tier as ELAN holds them: instants last until the next one of the tier, at most EAF_INSTANT_MS. */
export function eafSpansOf(tier: TimelineTier, durationMs: number): TimedSpan[] {
  if (tier.kind === 'interval') return tier.spans;
  return tier.points.map((p, i) => ({
    t0_ms: p.t_ms,
    t1_ms: Math.min(p.t_ms + EAF_INSTANT_MS, tier.points[i + 1]?.t_ms ?? durationMs, durationMs),
    text: p.text,
  }));
}

/**
 * An ELAN annotation document (EAF 3.0, times in ms) of one annotator's item: a tier per timeline tier, the label
 * tier under a controlled vocabulary of the project's labels, and the tiers with a parent (label act sources,
 * step judgments) as symbolic associations of their parent's annotations.
 */
export function eafDocument(timeline: ItemTimeline, header: EafHeader): string {
  const slotIds = new Map<number, string>();
  const tierSpans = timeline.tiers.map((tier) => ({ tier, spans: eafSpansOf(tier, timeline.duration_ms) }));
  for (const { tier, spans } of tierSpans) {
    if (tier.parent) continue;
    for (const s of spans) {
      slotIds.set(s.t0_ms, '');
      slotIds.set(s.t1_ms, '');
    }
  }
  const times = [...slotIds.keys()].sort((a, b) => a - b);
  times.forEach((t, i) => slotIds.set(t, `ts${i + 1}`));

  const cveIds = new Map(timeline.labels.map((label, i) => [label, `cve_label_${i + 1}`]));
  let nextAnnotation = 1;
  const annotationIds = new Map<string, string[]>();
  const lines: string[] = [];
  for (const { tier, spans } of tierSpans) {
    const type = tier.parent ? 'association' : tier.name === 'label acts' ? 'label' : 'text';
    lines.push(
      `  <TIER${xmlAttributes({ LINGUISTIC_TYPE_REF: type, PARENT_REF: tier.parent, PARTICIPANT: timeline.annotator, ANNOTATOR: timeline.annotator, TIER_ID: tier.name })}>`,
    );
    const ids: string[] = [];
    const parentSpans = tier.parent ? tierSpans.find((t) => t.tier.name === tier.parent)!.spans : [];
    const parentIds = tier.parent ? annotationIds.get(tier.parent)! : [];
    spans.forEach((s, i) => {
      const id = `a${nextAnnotation++}`;
      ids.push(id);
      lines.push('    <ANNOTATION>');
      if (tier.parent) {
        // the parent's annotation over the same span (points of a child tier are the parent's, one to one)
        const at = tier.kind === 'point' ? i : parentSpans.findIndex((p) => p.t0_ms === s.t0_ms && p.t1_ms === s.t1_ms);
        if (at < 0 || parentIds[at] === undefined)
          throw new RangeError(
            `tier "${tier.name}": annotation ${i + 1} has no annotation of "${tier.parent}" over ${s.t0_ms}–${s.t1_ms} ms`,
          );
        lines.push(`      <REF_ANNOTATION${xmlAttributes({ ANNOTATION_ID: id, ANNOTATION_REF: parentIds[at] })}>`);
        lines.push(`        <ANNOTATION_VALUE>${escapeXmlText(s.text)}</ANNOTATION_VALUE>`);
        lines.push('      </REF_ANNOTATION>');
      } else {
        const cve = type === 'label' ? cveIds.get(s.text) : undefined;
        lines.push(
          `      <ALIGNABLE_ANNOTATION${xmlAttributes({ ANNOTATION_ID: id, TIME_SLOT_REF1: slotIds.get(s.t0_ms), TIME_SLOT_REF2: slotIds.get(s.t1_ms), CVE_REF: cve })}>`,
        );
        lines.push(`        <ANNOTATION_VALUE>${escapeXmlText(s.text)}</ANNOTATION_VALUE>`);
        lines.push('      </ALIGNABLE_ANNOTATION>');
      }
      lines.push('    </ANNOTATION>');
    });
    annotationIds.set(tier.name, ids);
    lines.push('  </TIER>');
  }

  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<ANNOTATION_DOCUMENT${xmlAttributes({ AUTHOR: header.author, DATE: header.date, FORMAT: '3.0', VERSION: '3.0', 'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance', 'xsi:noNamespaceSchemaLocation': 'http://www.mpi.nl/tools/elan/EAFv3.0.xsd' })}>`,
    `  <HEADER${xmlAttributes({ MEDIA_FILE: '', TIME_UNITS: 'milliseconds' })}>`,
    `    <MEDIA_DESCRIPTOR${xmlAttributes({ MEDIA_URL: header.mediaUrl, MIME_TYPE: 'audio/x-wav', RELATIVE_MEDIA_URL: header.relativeMediaUrl })}/>`,
    ...header.properties.map(([name, value]) => `    <PROPERTY${xmlAttributes({ NAME: name })}>${escapeXmlText(value)}</PROPERTY>`),
    `    <PROPERTY NAME="lastUsedAnnotationId">${nextAnnotation - 1}</PROPERTY>`,
    '  </HEADER>',
    '  <TIME_ORDER>',
    ...times.map((t) => `    <TIME_SLOT${xmlAttributes({ TIME_SLOT_ID: slotIds.get(t), TIME_VALUE: t })}/>`),
    '  </TIME_ORDER>',
    ...lines,
    `  <LINGUISTIC_TYPE${xmlAttributes({ GRAPHIC_REFERENCES: false, LINGUISTIC_TYPE_ID: 'text', TIME_ALIGNABLE: true })}/>`,
    `  <LINGUISTIC_TYPE${xmlAttributes({ CONTROLLED_VOCABULARY_REF: 'labels', GRAPHIC_REFERENCES: false, LINGUISTIC_TYPE_ID: 'label', TIME_ALIGNABLE: true })}/>`,
    `  <LINGUISTIC_TYPE${xmlAttributes({ CONSTRAINTS: 'Symbolic_Association', GRAPHIC_REFERENCES: false, LINGUISTIC_TYPE_ID: 'association', TIME_ALIGNABLE: false })}/>`,
    `  <LANGUAGE${xmlAttributes({ LANG_DEF: 'http://cdb.iso.org/lg/CDB-00130975-001', LANG_ID: 'und', LANG_LABEL: 'undetermined (und)' })}/>`,
    ...STANDARD_CONSTRAINTS.map(
      ([stereotype, description]) => `  <CONSTRAINT${xmlAttributes({ DESCRIPTION: description, STEREOTYPE: stereotype })}/>`,
    ),
    `  <CONTROLLED_VOCABULARY${xmlAttributes({ CV_ID: 'labels' })}>`,
    `    <DESCRIPTION LANG_REF="und">The project's labels (aloud.yaml schema.labels)</DESCRIPTION>`,
    ...timeline.labels.map(
      (label) =>
        `    <CV_ENTRY_ML${xmlAttributes({ CVE_ID: cveIds.get(label) })}><CVE_VALUE LANG_REF="und">${escapeXmlText(label)}</CVE_VALUE></CV_ENTRY_ML>`,
    ),
    '  </CONTROLLED_VOCABULARY>',
    '</ANNOTATION_DOCUMENT>',
    '',
  ].join('\n');
}

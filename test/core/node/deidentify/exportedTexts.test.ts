import { describe, expect, it } from 'vitest';
import { parseDeidentifyList } from '../../../../core/common/deidentify/deidentifyList';
import { SpanMatcher } from '../../../../core/common/deidentify/spanMatcher';
import { exportedTexts, leakProblems, qdeTexts } from '../../../../core/node/deidentify/exportedTexts';

const matcher = new SpanMatcher(parseDeidentifyList('terms:\n  - {text: Sarah, class: PERSON}\n'));

describe('the texts of exported files, as the export and validate read them', () => {
  it("a QDPX project: Aloud's duration-and-hash note is no number to hide, a name in any text node is found", () => {
    const xml = `<Project><Description>bob thinking aloud on item demo-01 (1234567 ms, sha256 ${'a'.repeat(64)})</Description><PlainTextContent>I met S&#x430;rah</PlainTextContent></Project>`;
    expect(
      leakProblems(
        qdeTexts(xml).map((text) => ({ where: 'p.qde', text })),
        matcher,
      ).map((p) => p.message),
    ).toEqual(['a text holds a PERSON at offset 6 that a de-identified export must not hold']);
  });

  it("a TextGrid's quoted strings, SRT/WebVTT cue lines without timings, and not a WAV", async () => {
    const grid = 'File type = "ooTextFile"\nObject class = "TextGrid"\n\nintervals [1]:\n  text = "said ""Sarah"" twice"\n';
    expect((await exportedTexts('a.TextGrid', Buffer.from(grid)))!.map((t) => t.text)).toContain('said "Sarah" twice');
    const vtt = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\ncall 555 1234\n';
    expect((await exportedTexts('a.vtt', Buffer.from(vtt)))!.map((t) => t.text)).toEqual(['\ncall 555 1234\n']);
    expect(await exportedTexts('a.wav', Buffer.from('RIFF'))).toBeNull();
  });
});

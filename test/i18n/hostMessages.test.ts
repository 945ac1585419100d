/**
 * Host words that reach a person in the app (a model file's problem, a lock's holder, an fs error, the engine's
 * problem) are catalog messages: their English is byte-identical to the text written before the catalog (the CLI and
 * --json do not move), and the app says them, nested values too, in German.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../core/common/i18n/translator';
import { byteSourceOf, describeForeignMagic, readGgmlPreamble } from '../../core/common/models/ggmlFormat';
import { ModelFileError } from '../../core/common/models/modelFileError';
import { Refusal } from '../../core/common/refusal/refusal';
import { englishRefusal, formatRefusal, say, type RefusalMessage } from '../../core/common/refusal/refusalMessage';
import refusalDe from '../../core/common/refusal/messages/de.json';
import { describeFsError } from '../../core/node/fs/durableFile';
import { checkGgmlModelFile } from '../../core/node/models/ggmlHeader';
import { acquireSessionLock } from '../../core/node/session/sessionLock';

const german = createTranslator('de', refusalDe);
const inGerman = (m: RefusalMessage): string => formatRefusal(german, m)!;

async function refusalOf(act: () => Promise<unknown>): Promise<Refusal> {
  try {
    await act();
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
  throw new Error('no refusal');
}

const preambleError = (bytes: Uint8Array): Promise<Refusal> => refusalOf(() => readGgmlPreamble(byteSourceOf(bytes), 'm.bin'));
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('a model file problem', () => {
  it('says what it said before, and German in the app', async () => {
    const cases: Array<[Uint8Array, string, RegExp]> = [
      [new Uint8Array(0), 'm.bin: is empty (0 bytes), not a whisper model', /^m\.bin: ist leer \(0 Byte\)/],
      [new Uint8Array(3), 'm.bin: is only 3 bytes, not a whisper model', /^m\.bin: hat nur 3 Byte/],
      [ascii('GGUF....'), 'm.bin: is a GGUF file (llama.cpp-style container), not a whisper.cpp ggml model', /GGUF-Datei/],
      [
        ascii('PK\x03\x04rest'),
        "m.bin: is a ZIP archive (a PyTorch checkpoint?), not a whisper.cpp ggml model; convert it with whisper.cpp's models/convert-pt-to-ggml.py",
        /ZIP-Archiv/,
      ],
      [
        ascii('<html>oops'),
        'm.bin: is a text (HTML/JSON) document, not a model; perhaps an error page was saved instead of the file',
        /Fehlerseite/,
      ],
      [ascii('ABCDEFGH'), 'm.bin: is not a whisper.cpp ggml model (magic 0x44434241, expected 0x67676d6c "ggml")', /Kennung 0x44434241/],
      [
        new Uint8Array([0x6c, 0x6d, 0x67, 0x67, 1, 2, 3, 4, 5, 6]),
        'm.bin: truncated: the file ends at byte 10 inside the header (hparams) (10 bytes on disk)',
        /Abgeschnitten: Die Datei endet bei Byte 10 innerhalb der Kopfdaten \(hparams\)/,
      ],
    ];
    for (const [bytes, english, germanText] of cases) {
      const e = await preambleError(bytes);
      expect(e).toBeInstanceOf(ModelFileError);
      expect(e.message).toBe(english);
      expect(englishRefusal(e.say!)).toBe(english);
      expect(inGerman(e.say!)).toMatch(germanText);
    }
  });

  it('a file that cannot be opened: the reason apart (the models list) and whole (a refusal)', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-hostmsg-')), 'missing.bin');
    const e = (await refusalOf(() => checkGgmlModelFile(file))) as ModelFileError;
    expect([e.message, e.reason]).toEqual([`${file}: not found`, 'not found']);
    expect(inGerman(e.say!)).toBe(`${file}: nicht gefunden`);
    expect(inGerman(e.reasonSaid)).toBe('nicht gefunden');
  });

  it('every reason keeps the English of the template it replaced', () => {
    const [at, nDims, name, n, type, gb] = [1234, 7, 'encoder.conv1.weight', 5, 'q4_0', 3.4];
    const same: Array<[RefusalMessage, string]> = [
      [
        say('refusal.modelFile.header', { reason: say('refusal.modelFile.nMels', { value: 64 }) }),
        'header: n_mels = 64; whisper models have 80 (or 128 for large-v3) mel bands',
      ],
      [
        say('refusal.modelFile.hparamRange', { name: 'n_vocab', value: 9, min: 51864, max: 51866 }),
        'n_vocab = 9 is outside the range of whisper models (51864–51866); this is not a whisper model or its header is damaged',
      ],
      [
        say('refusal.modelFile.notDivisible', { state: 'n_text_state', value: 10, head: 'n_text_head', heads: 3 }),
        'n_text_state = 10 is not divisible by n_text_head = 3',
      ],
      [
        say('refusal.modelFile.recordCut', { offset: at, left: 9 }),
        `truncated: the file ends inside the tensor record at byte ${at} (9 bytes left)`,
      ],
      [
        say('refusal.modelFile.nDims', { offset: at, nDims }),
        `tensor record at byte ${at}: n_dims = ${nDims} (expected 1–4); the tensor data is damaged`,
      ],
      [
        say('refusal.modelFile.rowBlocks', { name, offset: at, n, type }),
        `tensor '${name}' at byte ${at}: row of ${n} elements is not a whole number of ${type} blocks`,
      ],
      [say('refusal.modelFile.twice', { name, first: 10, offset: at }), `tensor '${name}' appears twice (bytes 10 and ${at})`],
      [
        say('refusal.modelFile.shape', { name, shape: '[3, 80]', want: '[3, 128]' }),
        `tensor '${name}' has shape [3, 80] but this header implies [3, 128]`,
      ],
      [
        say('refusal.modelFile.missingTensors', { present: 4, expected: 167, missing: name, size: 99, expectedBytes: 77691713 }),
        `truncated: 4 of 167 tensors present (first missing: '${name}'); the file has 99 bytes, a complete one 77691713`,
      ],
      [
        say('refusal.modelFile.vocabOnly', {
          state: 2048,
          encoder: 40,
          decoder: 2,
          amount: say('refusal.modelFile.aboutGb', { gb: gb.toFixed(0) }),
        }),
        'holds no weights (a vocab-only file) and its dimensions match no whisper model (n_audio_state = 2048, 40 encoder and 2 decoder layers): whisper.cpp would allocate about 3 GB for weights the file does not hold',
      ],
      [
        say('refusal.modelFile.truncatedSkip', { size: 500, what: say('refusal.modelFile.part.vocabToken', { i: 3, count: 51864 }) }),
        'truncated: the file ends at byte 500 inside vocabulary token 3 of 51864',
      ],
    ];
    for (const [message, english] of same) expect(englishRefusal(message)).toBe(english);
    expect(inGerman(same[0]![0])).toBe('Kopfdaten: n_mels = 64; Whisper-Modelle haben 80 (oder 128 bei large-v3) Mel-Bänder');
    expect(inGerman(same[6]![0])).toBe(`Tensor '${name}' kommt zweimal vor (Byte 10 und 1234)`);
    expect(englishRefusal(describeForeignMagic(new Uint8Array([1])))).toBe(
      'is not a whisper.cpp ggml model (magic missing, expected 0x67676d6c "ggml")',
    );
  });
});

describe('a refusal whose value is another message', () => {
  it("a session lock's holder: the English line as before, the German one German throughout", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-hostmsg-')), 'session.lock');
    const session = say('refusal.session.lock.sessionOf', { annotator: 'ana', dir: '/p' });
    await acquireSessionLock(file, { sessionLabel: session, pid: process.pid, host: 'here' });
    const e = await refusalOf(() => acquireSessionLock(file, { sessionLabel: session, pid: process.pid + 1, host: 'here' }));
    expect(e.message).toMatch(
      /^the session of "ana" in \/p is already open for writing by process \d+ on here since \S+; close that Aloud window or command first$/,
    );
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(inGerman(e.say!)).toMatch(
      /^Die Sitzung von „ana“ in \/p ist bereits zum Schreiben geöffnet \(Prozess [\d.]+ auf here, seit \S+\); schließen Sie zuerst/,
    );
  });

  it('an fs error the host names (ENOSPC) and one it does not (the system words stay)', () => {
    const full = describeFsError(Object.assign(new Error('ENOSPC: no space'), { code: 'ENOSPC' }));
    expect(full.text).toBe('no space left on the disk (ENOSPC)');
    const inLock = say('refusal.session.cannotCreateTheLock', { file: 'x.lock', text: full.say });
    expect(englishRefusal(inLock)).toBe('cannot create the lock x.lock: no space left on the disk (ENOSPC)');
    expect(inGerman(inLock)).toBe('Die Sperre x.lock kann nicht angelegt werden: Kein Speicherplatz mehr auf dem Datenträger (ENOSPC)');
    expect(describeFsError(Object.assign(new Error('EBUSY: busy'), { code: 'EBUSY' }))).toEqual({
      code: 'EBUSY',
      text: 'EBUSY: busy',
      say: 'EBUSY: busy',
    });
  });

  it('an id this build lacks, nested or not, leaves the English (formatRefusal says null)', () => {
    expect(formatRefusal(german, { id: 'refusal.session.noItemIsOpenOpen', values: { toDo: { id: 'refusal.nope' } } })).toBeNull();
    expect(formatRefusal(german, { id: 'refusal.nope' })).toBeNull();
  });
});

describe('the engine problem in the banner', () => {
  it('a model that cannot be used: the English as before, the German with the file problem in German', async () => {
    const { resolveSessionModel } = await import('../../core/node/engine/sessionModel');
    const dir = await mkdtemp(path.join(tmpdir(), 'aloud-hostmsg-models-'));
    await writeFile(path.join(dir, 'ggml-tiny.en.bin'), new Uint8Array(0));
    const project = { config: { thinkaloud: { model: 'tiny.en' } }, configPath: '/p/aloud.yaml' } as unknown as Parameters<
      typeof resolveSessionModel
    >[0];
    const e = await refusalOf(() => resolveSessionModel(project, null, dir));
    expect(e.message).toBe(
      `the model "tiny.en" in ${dir} cannot be used (is empty (0 bytes), not a whisper model): get it with \`aloud models download tiny.en\`, import a file with \`aloud models import FILE --name tiny.en\`, or pass --model FILE`,
    );
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(inGerman(e.say!)).toBe(
      `Das Modell „tiny.en“ in ${dir} kann nicht verwendet werden (ist leer (0 Byte), kein Whisper-Modell): Laden Sie es mit \`aloud models download tiny.en\` herunter, importieren Sie eine Datei mit \`aloud models import FILE --name tiny.en\` oder übergeben Sie --model FILE`,
    );
  });
});

describe('a damaged session log opened in the app', () => {
  it('the line and its problem: the English as before, the German from the catalog', async () => {
    const { parseEventLine } = await import('../../core/common/session/sessionLog');
    const sayOf = async (raw: string, line: number): Promise<Refusal> => refusalOf(async () => parseEventLine(raw, 'events.jsonl', line));
    const seq = await sayOf('{"v":1,"seq":3,"ts":"2026-01-01T00:00:00Z","type":"session_started","data":{}}', 1);
    expect(seq.message).toBe('events.jsonl:1: field "seq" is 3 but must be 1: seq counts events from 1 without gaps');
    expect(englishRefusal(seq.say!)).toBe(seq.message);
    expect(inGerman(seq.say!)).toBe('events.jsonl:1: das Feld „seq“ ist 3, muss aber 1 sein: seq zählt die Ereignisse lückenlos ab 1');
    const notObject = await sayOf('[1]', 2);
    expect(notObject.message).toBe('events.jsonl:2: an event must be a JSON object {v, seq, ts, type, data}');
    expect(inGerman(notObject.say!)).toBe('events.jsonl:2: ein Ereignis muss ein JSON-Objekt {v, seq, ts, type, data} sein');
    const newer = await sayOf('{"v":99,"seq":1,"ts":"2026-01-01T00:00:00Z","type":"session_started","data":{}}', 1);
    expect(newer.message).toMatch(
      /^events\.jsonl:1: session_started v99 is newer than this version of Aloud understands \(v\d+\); update Aloud to open this session$/,
    );
    expect(inGerman(newer.say!)).toMatch(/aktualisieren Sie Aloud, um diese Sitzung zu öffnen$/);
  });
});

describe('what the opening of a session repaired (the notice)', () => {
  it('the English list as before, German in the app', () => {
    const torn = say('refusal.session.recovered.torn', { line: '7', file: 'events.jsonl.torn' });
    const audio = say('refusal.session.recovered.audio', { itemId: 'a', seconds: '2.5' });
    const notice = say('refusal.session.recovered.end', { what: say('refusal.session.recovered.list', { first: torn, rest: audio }) });
    expect(englishRefusal(notice)).toBe(
      'the last line of the session log was torn (line 7) and set aside in events.jsonl.torn; the audio of "a" was repaired (2.5 s kept).',
    );
    expect(inGerman(notice)).toBe(
      'die letzte Zeile des Sitzungsprotokolls war abgerissen (Zeile 7) und wurde in events.jsonl.torn beiseitegelegt; die Audiodaten von „a“ wurden repariert (2.5 s behalten).',
    );
  });
});

describe('a project path refused', () => {
  it('a link leading out of the project: the English as before, German with the hint in German', async () => {
    const { mkdir, symlink } = await import('node:fs/promises');
    const { resolveInside } = await import('../../core/node/fs/resolveInside');
    const root = await mkdtemp(path.join(tmpdir(), 'aloud-hostmsg-path-'));
    await mkdir(path.join(root, 'project'));
    await writeFile(path.join(root, 'secret.txt'), 'x');
    await symlink(path.join(root, 'secret.txt'), path.join(root, 'project', 'items.jsonl'));
    const e = await refusalOf(() => resolveInside(path.join(root, 'project'), 'items.jsonl', 'read'));
    expect(e.message).toMatch(
      /: is a link that leads outside the project \(to .*secret\.txt\); Aloud does not read or write project data through links \(projects travel as archives and git repos, so a link is input\); replace it with the real file$/,
    );
    expect(englishRefusal(e.say!)).toBe(e.message);
    expect(inGerman(e.say!)).toMatch(
      /: ist eine Verknüpfung, die aus dem Projekt hinausführt \(nach .*secret\.txt\); Aloud liest und schreibt Projektdaten nicht/,
    );
  });
});

describe('a storage failure', () => {
  it('the disk is full while writing: the refusal the app shows is German, the English as before', async () => {
    const { DurableWriteError } = await import('../../core/node/fs/durableFile');
    const { asRefusal } = await import('../../core/common/refusal/refusal');
    const full = describeFsError(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
    const e = new DurableWriteError(say('refusal.storage.cannotOpen', { file: 'events.jsonl', text: full.say }), 'events.jsonl', full.code);
    expect(e.message).toBe('cannot open events.jsonl for writing: no space left on the disk (ENOSPC)');
    const refusal = asRefusal(e);
    expect([refusal.code, refusal.message]).toEqual(['storage', e.message]);
    expect(inGerman(refusal.say!)).toBe(
      'events.jsonl kann nicht zum Schreiben geöffnet werden: Kein Speicherplatz mehr auf dem Datenträger (ENOSPC)',
    );
  });
});

describe('a WAV file refused', () => {
  it('an unsupported sample size: English as before, German with the hint in German', async () => {
    const { decodeWav } = await import('../../core/node/audio/wavFile');
    const header = new Uint8Array(44);
    const v = new DataView(header.buffer);
    header.set(ascii('RIFF'), 0);
    v.setUint32(4, 36, true);
    header.set(ascii('WAVEfmt '), 8);
    v.setUint32(16, 16, true);
    v.setUint16(20, 1, true);
    v.setUint16(22, 1, true);
    v.setUint32(24, 16000, true);
    v.setUint32(28, 16000 * 2, true);
    v.setUint16(32, 2, true);
    v.setUint16(34, 12, true);
    header.set(ascii('data'), 36);
    const e = await refusalOf(async () => decodeWav(header, 'x.wav'));
    expect(e.message).toBe(
      'x.wav: unsupported PCM sample size of 12 bits (supported: 8, 16, 24, 32); convert it to 16-bit PCM first, e.g. `sox in.wav -b 16 -e signed-integer out.wav`',
    );
    expect(inGerman(e.say!)).toBe(
      'x.wav: nicht unterstützte PCM-Samplegröße von 12 Bit (unterstützt: 8, 16, 24, 32); wandeln Sie sie zuerst in 16-Bit-PCM um, z. B. `sox in.wav -b 16 -e signed-integer out.wav`',
    );
  });
});

describe('which room a room refusal names', () => {
  it('is a word of the sentence in each language (the CLI keeps "room" and "shadow room")', () => {
    expect(englishRefusal(say('refusal.rooms.noIsOpen', { what: 'shadow' }))).toBe('no shadow room is open');
    expect(englishRefusal(say('refusal.rooms.isOpenCloseItFirst', { what: 'room', code: 'K7P' }))).toBe('room K7P is open; close it first');
    expect(inGerman(say('refusal.rooms.noIsOpen', { what: 'shadow' }))).toBe('Kein Shadow-Raum ist offen');
    expect(inGerman(say('refusal.rooms.isOpenCloseItFirst', { what: 'room', code: 'K7P' }))).toBe(
      'Der Raum K7P ist offen; schließen Sie ihn zuerst',
    );
  });
});

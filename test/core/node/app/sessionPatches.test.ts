import { existsSync } from 'node:fs';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/common/agreement/krippendorff';
import { encodeChunkFrame } from '../../../../core/common/audio/chunkFrame';
import type { AloudMethod } from '../../../../core/common/contract/aloudApi';
import type { SessionPatch, SessionView } from '../../../../core/common/session/sessionApi';
import { SESSION_PATCH_METHODS } from '../../../../core/common/contract/apiMethods';
import { isSessionPatch, type HeldSessionView } from '../../../../core/common/session/sessionPatch';
import { asRefusal } from '../../../../core/common/refusal/refusal';
import { AppService } from '../../../../core/node/app/appService';
import { readWav, resampleTo16k } from '../../../../core/node/audio/wavFile';
import { openSessionEngine, type SessionEngine } from '../../../../core/node/engine/sessionEngine';
import { DEMO_PROJECT_DIR, type OpenProject } from '../../../../core/node/project/projectFolder';
import { appReducer, initialAppState, type AppAction, type AppState } from '../../../../renderer/src/app/appState';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const clipFile = path.resolve(repo, '../shared/fixtures/audio/commit-polite.wav');
const haveClip = existsSync(clipFile);

/** What the scripted engine says for the utterances of the items the acts record (beyond them: an empty transcript). */
const SPOKEN: Record<string, Array<{ text: string; delay_ms: number }>> = {
  'demo-01': [
    { text: ' Hmm, well. This is kind of polite, I guess.', delay_ms: 20 },
    { text: ' I label this polite.', delay_ms: 80 },
  ],
  'demo-02': [
    { text: ' Well, it is rude.', delay_ms: 10 },
    { text: ' I label this impolite.', delay_ms: 40 },
  ],
  'demo-03': [
    { text: ' Step two is wrong.', delay_ms: 30 },
    { text: ' Final answer: neutral.', delay_ms: 10 },
  ],
  'demo-04': [
    { text: ' I would not label this polite.', delay_ms: 5 },
    { text: ' I label this polite.', delay_ms: 60 },
  ],
};

/** How the engine fails: every third utterance at once, or (broken) every one a while later, after the acts that sent them. */
const engineHealth = { broken: false };

/** The scripted engine, failing as engineHealth says (a failure is logged on its item as a stale result). */
async function flakyEngine(project: OpenProject, script: string): Promise<SessionEngine> {
  const engine = await openSessionEngine({ project, modelFile: null, engineScript: script });
  const { transcriber } = engine;
  const crash = (): Promise<never> => Promise.reject(new Error('engine crashed'));
  return {
    ...engine,
    transcriber: {
      transcribe: (request) =>
        engineHealth.broken
          ? new Promise((resolve) => setTimeout(resolve, 300)).then(crash)
          : request.utterance % 3 === 2
            ? crash()
            : transcriber.transcribe(request),
      cancelItem: (itemId) => transcriber.cancelItem(itemId),
      close: () => transcriber.close(),
    },
  };
}

async function demoApp(): Promise<{ app: AppService; projectDir: string; script: string }> {
  const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-patches-')), 'proj');
  await cp(DEMO_PROJECT_DIR, projectDir, { recursive: true });
  const script = path.join(projectDir, '..', 'engine-script.json');
  await writeFile(script, JSON.stringify({ items: SPOKEN }));
  const app = await AppService.open({ projectDir, mode: 'browser', openEngine: (project) => flakyEngine(project, script) });
  return { app, projectDir, script };
}

/** The page's store (the renderer's own reducer), fed as the page feeds it: pushed events and the calls' answers. */
function pageStore(app: AppService) {
  let state: AppState = initialAppState({ deviceId: null, keepTalkingSeconds: null });
  /** every answer and stamped event the page applied, in order (to apply them again in another order) */
  const applied: AppAction[] = [];
  const dispatch = (action: AppAction): void => {
    state = appReducer(state, action);
    if (
      action.type === 'session' ||
      (action.type === 'event' && ['item', 'session_reopened', 'recording', 'transcription', 'finishing'].includes(action.event.type))
    )
      applied.push(action);
  };
  const stop = app.subscribe((event) => dispatch({ type: 'event', event }));
  return {
    get session(): HeldSessionView | null {
      return state.session;
    },
    keep: (answer: SessionView | SessionPatch) => dispatch({ type: 'session', session: answer }),
    applied,
    stop,
  };
}

describe('every act on the session answers with a patch', () => {
  it('the method table marks exactly the acts on the open session as answering with a patch', () => {
    expect([...SESSION_PATCH_METHODS].sort()).toEqual(
      [
        'addNote',
        'commitLabel',
        'completeItem',
        'confirmLabelChange',
        'correctSegment',
        'judgeStep',
        'logCue',
        'logPlayback',
        'openItem',
        'rederiveLabelsFromCorrections',
        'selectText',
        'startRecording',
        'stopRecording',
        'transcribeLater',
      ].sort(),
    );
  });
});

describe.skipIf(!haveClip)('a page that applies patches shows what a full reload shows', () => {
  it('after 200 seeded random acts (labels, navigation, recordings with transcriptions landing, notes, cues, reasoning, corrections), and after a restart from the log', async () => {
    const { app, projectDir, script } = await demoApp();
    const clip = await readWav(clipFile).then((wav) => resampleTo16k(wav.samples, wav.sampleRate));
    const page = pageStore(app);
    const random = seededRandom(20);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const itemIds = (await app.project()).items.map((i) => i.id);
    const done = new Map<string, number>();
    const refused = new Map<string, number>();
    let recording: { next: number } | null = null;
    let patchedItems = 0;

    const act = async (name: AloudMethod, call: () => Promise<SessionView | SessionPatch | null>): Promise<void> => {
      try {
        const answer = await call();
        if (answer !== null) {
          expect(isSessionPatch(answer), name).toBe(SESSION_PATCH_METHODS.includes(name));
          if (isSessionPatch(answer)) patchedItems = Math.max(patchedItems, answer.changed_items.length);
          page.keep(answer);
        }
        done.set(name, (done.get(name) ?? 0) + 1);
      } catch (e) {
        const refusal = asRefusal(e);
        // the session's rules refuse some random acts (no label yet, no transcript, not recording): data, not failure
        expect(
          ['conflict', 'bad_request', 'spoken_label_required', 'transcription_pending', 'confirmation_required'],
          `${name}: ${refusal.message}`,
        ).toContain(refusal.code);
        refused.set(name, (refused.get(name) ?? 0) + 1);
      }
      if (name === 'openItem' || name === 'completeItem' || name === 'stopRecording') recording = null;
    };
    const sendAudio = async (chunks: number): Promise<void> => {
      for (let k = 0; k < chunks && recording; k++) {
        const from = recording.next % clip.length;
        const pcm = clip.slice(from, Math.min(clip.length, from + 3200));
        await app.appendAudio(encodeChunkFrame({ startSample: recording.next, pcm }));
        recording.next += pcm.length;
      }
    };

    try {
      await act('openSession', () => app.openSession('ana'));
      const ACTS: Array<[number, () => Promise<void>]> = [
        [18, () => act('openItem', () => app.openItem(pick(itemIds.slice(0, 6))))],
        [22, () => act('commitLabel', () => app.commitLabel(pick(['Polite', 'Impolite', 'Neutral']), pick(['click', 'key'] as const)))],
        [8, () => act('completeItem', () => app.completeItem())],
        // a completed item's label changes only once the annotator confirms it
        [
          4,
          () =>
            act('confirmLabelChange', () =>
              app.confirmLabelChange(pick(['Polite', 'Impolite', 'Neutral']), pick(['click', 'key'] as const)),
            ),
        ],
        [6, () => act('addNote', () => app.addNote(`note ${Math.floor(random() * 1000)}`))],
        [
          12,
          async () => {
            if (!recording) {
              await act('startRecording', () => app.startRecording(null));
              recording = page.session?.recording_item ? { next: 0 } : null;
            }
            await sendAudio(5 + Math.floor(random() * 40));
          },
        ],
        [7, () => act('stopRecording', () => app.stopRecording())],
        [4, () => act('logCue', () => app.logCue('keep_talking', 2000 + Math.floor(random() * 3000)))],
        [
          8,
          async () => {
            // a step is judged once the reasoning is shown, which it is after the blind label on items that have some
            await act('showReasoning', async () => (await app.showReasoning(), null));
            await act('judgeStep', () =>
              app.judgeStep(1 + Math.floor(random() * 4), pick([1, 0, -1, null] as const), pick(['click', 'key'] as const)),
            );
          },
        ],
        [
          6,
          async () => {
            const transcribed = page.session?.items.filter((i) => i.segments > 0) ?? [];
            if (transcribed.length === 0) return;
            const line = pick(transcribed);
            const item = page.session?.item_states[line.item_id] ?? (await app.sessionItem(line.item_id))!;
            const ref = pick(item.segment_refs);
            await act('correctSegment', () =>
              app.correctSegment(item.item_id, ref.utterance, ref.segment, pick(['I label this neutral.', 'It is rude.', 'thanks'])),
            );
          },
        ],
        [3, () => act('rederiveLabelsFromCorrections', () => app.rederiveLabelsFromCorrections(pick(itemIds.slice(0, 4))))],
        [2, () => act('transcribeLater', () => app.transcribeLater(pick(itemIds.slice(0, 4))))],
        // the page reloads now and then: the whole view replaces what it kept
        [2, () => act('session', () => app.session())],
        // someone else reads the view (a test, a second look) while an act runs: the page's patches still carry everything
        [
          3,
          async () => {
            const reads = async (running: Promise<void>): Promise<void> => {
              let done = false;
              void running.finally(() => (done = true));
              while (!done) {
                expect((await app.session()).annotator).toBe('ana');
                await new Promise((resolve) => setImmediate(resolve));
              }
            };
            const label = act('commitLabel', () => app.commitLabel(pick(['Polite', 'Impolite', 'Neutral']), 'key'));
            await Promise.all([label, reads(label)]);
            const note = act('addNote', () => app.addNote(`seen ${Math.floor(random() * 1000)}`));
            await Promise.all([note, reads(note)]);
            if (recording) {
              const stop = act('stopRecording', () => app.stopRecording());
              await Promise.all([stop, reads(stop)]);
            }
          },
        ],
      ];
      const total = ACTS.reduce((sum, [weight]) => sum + weight, 0);
      for (let n = 0; n < 200; n++) {
        let r = random() * total;
        const [, run] = ACTS.find(([weight]) => (r -= weight) < 0) ?? ACTS[0]!;
        await run();
      }
      if (recording) await act('stopRecording', () => app.stopRecording());
      // last, a recording whose transcriptions all fail after the acts have answered: only a pushed event can tell the page
      engineHealth.broken = true;
      await act('openItem', () => app.openItem('demo-05'));
      await act('startRecording', () => app.startRecording(null));
      recording = { next: 0 };
      await sendAudio(Math.ceil(clip.length / 3200));
      await act('stopRecording', () => app.stopRecording());
      // the transcriptions still landing reach the page as pushed events, not as any act's answer
      await expect.poll(() => page.session?.pending_transcriptions, { timeout: 60_000 }).toBe(0);

      // answers and events travel on different connections: applied in another order (after the opening view),
      // the page ends with the same list, notes, session fields and item states (each the newest of its kind)
      for (let round = 0; round < 5; round++) {
        const [opening, ...rest] = page.applied;
        const shuffled = [...rest];
        for (let k = shuffled.length - 1; k > 0; k--) {
          const j = Math.floor(random() * (k + 1));
          [shuffled[k], shuffled[j]] = [shuffled[j]!, shuffled[k]!];
        }
        const other = [opening!, ...shuffled].reduce(appReducer, initialAppState({ deviceId: null, keepTalkingSeconds: null })).session!;
        const inOrder = page.session!;
        // (the order of the lines is the order items reached the page; screens look lines up by id)
        const byId = (view: HeldSessionView) => [...view.items].sort((a, b) => a.item_id.localeCompare(b.item_id));
        expect(byId(other), `round ${round}`).toEqual(byId(inOrder));
        expect(other.notes).toEqual(inOrder.notes);
        expect(other.current_item).toBe(inOrder.current_item);
        expect([other.recording_item, other.pending_transcriptions, other.pending_items, other.finishing_item]).toEqual([
          inOrder.recording_item,
          inOrder.pending_transcriptions,
          inOrder.pending_items,
          inOrder.finishing_item,
        ]);
        expect(other.item_states[other.current_item!]).toBeDefined();
        for (const itemId of Object.keys(other.item_states))
          if (inOrder.item_states[itemId]) expect(other.item_states[itemId], itemId).toEqual(inOrder.item_states[itemId]);
      }

      const reloaded = await app.session();
      // the list, the counters and the notes are the reload's; each item the page holds in full is the fold's now
      // (the stamps say when each was made, and what the page applied since its view is its own)
      const { item_states: held, stamp: _pageStamp, held: _applied, ...shown } = page.session!;
      const { item_states: reloadedStates, stamp: _reloadStamp, ...fresh } = reloaded;
      expect(shown).toEqual(fresh);
      expect(Object.keys(reloadedStates)).toEqual([reloaded.current_item]);
      expect(held[reloaded.current_item!]).toEqual(reloadedStates[reloaded.current_item!]);
      for (const [itemId, state] of Object.entries(held)) expect(state, itemId).toEqual(await app.sessionItem(itemId));
      // an item the session does not hold has no state to fetch
      expect(await app.sessionItem('no-such-item')).toBeNull();
      // the acts did happen: labels, recordings, transcripts, notes and corrections are in what both show
      expect(reloaded.items.some((i) => i.final_label !== null)).toBe(true);
      expect(reloaded.items.some((i) => i.audio_ms > 0 && i.segments > 0)).toBe(true);
      expect((await app.sessionItem('demo-05'))?.stale_results).toBeGreaterThan(0);
      expect(reloaded.notes.length).toBeGreaterThan(0);
      console.log(`acts done ${JSON.stringify(Object.fromEntries(done))}; refused ${JSON.stringify(Object.fromEntries(refused))}`);
      for (const name of ['openItem', 'commitLabel', 'startRecording', 'stopRecording', 'addNote', 'correctSegment', 'judgeStep'] as const)
        expect(done.get(name) ?? 0, name).toBeGreaterThan(0);
      // an act answers with what it changed, never with the session
      expect(patchedItems).toBeLessThan(reloaded.items.length);
      page.stop();
      await app.close();

      // the log is the truth: a new process folds it and shows the same session
      const again = await AppService.open({
        projectDir,
        mode: 'browser',
        openEngine: (project) => openSessionEngine({ project, modelFile: null, engineScript: script }),
      });
      engineHealth.broken = false;
      try {
        const restarted = await again.openSession('ana');
        expect({ ...restarted, stamp: 0 }).toEqual({ ...reloaded, recovered: null, stamp: 0 });
      } finally {
        await again.close();
      }
    } finally {
      page.stop();
      await app.close();
    }
  }, 300_000);
});

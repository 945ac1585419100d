/**
 * A refusal from the host reaches the app's error banner in the interface language: made by core's rules, sent as a
 * call outcome (JSON, as HTTP carries it), unwrapped by the client, reported by the one call wrapper into the app state.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createIntl, IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import type { ProjectView } from '../../../core/common/project/projectApi';
import { errorOutcome, unwrapOutcome, type CallOutcome } from '../../../core/common/refusal/callOutcome';
import { Refusal } from '../../../core/common/refusal/refusal';
import { englishRefusal, say } from '../../../core/common/refusal/refusalMessage';
import type { AppInfo } from '../../../core/common/settings/settingsApi';
import { requireOpenItem } from '../../../core/common/session/sessionRules';
import { AppBanners } from '../../../renderer/src/app/AppBanners';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';
import { appReducer, initialAppState, type AppState } from '../../../renderer/src/app/appState';
import { reportRefusalsTo } from '../../../renderer/src/shared/runCall';

const info = { engine: { available: true, model: null, problem: null } } as unknown as AppInfo;
const project = {} as ProjectView;

/** The host refuses a call; what the banner shows in `locale`. */
async function bannerFor(locale: 'en' | 'de', refuse: () => unknown): Promise<string> {
  const intl = createIntl({ locale, messages: appCatalogs[locale] });
  let state: AppState = initialAppState({ deviceId: null, keepTalkingSeconds: null });
  const run = reportRefusalsTo((message) => (state = appReducer(state, { type: 'error', message })), intl);
  await run(async () => {
    let outcome: CallOutcome;
    try {
      outcome = { ok: true, result: refuse() };
    } catch (e) {
      outcome = errorOutcome(e as Refusal);
    }
    return unwrapOutcome(JSON.parse(JSON.stringify(outcome)) as CallOutcome);
  });
  return renderToStaticMarkup(
    <IntlProvider locale={locale} messages={appCatalogs[locale]}>
      <AppBanners state={state} info={info} project={project} dispatch={() => undefined} />
    </IntlProvider>,
  );
}

describe('the error banner speaks the interface language', () => {
  const noItem = () => requireOpenItem({ currentItemId: null }, 'record');

  it('German: the refusal from the German catalog, not the English message', async () => {
    const html = await bannerFor('de', noItem);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Kein Item ist geöffnet: Öffnen Sie eines, bevor Sie aufnehmen');
    expect(html).not.toContain('no item is open');
  });

  it('English: the same words as before the catalog', async () => {
    expect(await bannerFor('en', noItem)).toContain('no item is open: open one before you record');
  });

  it('a refusal without a catalog message (or with an id this build lacks) shows its English message', async () => {
    expect(
      await bannerFor('de', () => {
        throw new Refusal('bad_request', 'args[0] must be a string');
      }),
    ).toContain('args[0] must be a string');
    const unknown = new Refusal('conflict', 'a newer host says so', { id: 'refusal.session.fromTheFuture' as never });
    expect(
      await bannerFor('de', () => {
        throw unknown;
      }),
    ).toContain('a newer host says so');
  });
});

describe('the no-model banner says the engine problem in the interface language', () => {
  it("a model that cannot be used: its problem, and the file's problem inside it, in German", () => {
    const problem = say('refusal.engine.getModel', {
      why: say('refusal.engine.modelUnusable', { model: 'tiny.en', folder: '/m', problem: say('refusal.modelFile.empty') }),
      model: 'tiny.en',
    });
    const engine = { available: false, model: null, problem: englishRefusal(problem), problem_said: problem };
    const state = {
      ...initialAppState({ deviceId: null, keepTalkingSeconds: null }),
      session: { annotator: 'ana', reviewer: null },
    } as unknown as AppState;
    const html = (locale: 'en' | 'de'): string =>
      renderToStaticMarkup(
        <IntlProvider locale={locale} messages={appCatalogs[locale]}>
          <AppBanners
            state={state}
            info={{ engine } as unknown as AppInfo}
            project={{ thinkaloud: { model: 'tiny.en', require_spoken_label: false } } as ProjectView}
            dispatch={() => undefined}
          />
        </IntlProvider>,
      );
    expect(html('de')).toContain('Das Modell „tiny.en“ in /m kann nicht verwendet werden (ist leer (0 Byte), kein Whisper-Modell)');
    expect(html('en')).toContain('the model &quot;tiny.en&quot; in /m cannot be used (is empty (0 bytes), not a whisper model)');
  });
});

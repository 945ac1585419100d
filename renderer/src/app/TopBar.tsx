import type { ReactNode } from 'react';
import type { ProjectView } from '../../../core/common/project/projectApi';
import type { HeldSessionView } from '../../../core/common/session/sessionPatch';
import { FormattedMessage, useIntl } from 'react-intl';
import type { AppMessageId } from '../shared/i18n/catalogs';
import type { Tab } from './appState';

const TAB_NAMES: Record<Tab, AppMessageId> = {
  label: 'app.tab.label',
  review: 'app.tab.review',
  agreement: 'app.tab.agreement',
  adjudicate: 'app.tab.adjudicate',
  project: 'app.tab.project',
  settings: 'app.tab.settings',
};

/** The app's top bar: the project, the tabs, the session's progress and who it is; `children` (the export) at its end. */
export function TopBar({
  project,
  session,
  tab,
  onTab,
  children,
}: {
  project: ProjectView;
  session: HeldSessionView | null;
  tab: Tab;
  onTab: (tab: Tab) => void;
  children?: ReactNode;
}) {
  const intl = useIntl();
  const labelled = session ? session.items.filter((i) => i.final_label !== null).length : 0;
  return (
    <header className="topbar">
      {/* i18n-ignore: the product's name */}
      <h1 className="brand">Aloud</h1>
      <div className="project" title={intl.formatMessage({ id: 'app.project' })}>
        {project.name}
      </div>
      {session && (
        <nav className="tabs" role="tablist">
          {(['label', 'review', 'agreement', 'adjudicate', 'project', 'settings'] as const).map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'tab active' : 'tab'} onClick={() => onTab(t)}>
              <FormattedMessage id={TAB_NAMES[t]} />
            </button>
          ))}
        </nav>
      )}
      <div className="spacer" />
      {session && (
        <>
          <div className="progress" title={intl.formatMessage({ id: 'app.progress.title' }, { labelled, count: project.items.length })}>
            <div className="progress-bar" style={{ width: `${(100 * labelled) / Math.max(1, project.items.length)}%` }} />
            <span>
              {labelled}/{project.items.length}
              <span className="progress-word">
                {' '}
                <FormattedMessage id="app.progress.word" />
              </span>
            </span>
          </div>
          {session.pending_transcriptions > 0 && (
            <div className="pending">
              <FormattedMessage id="app.pending" values={{ count: session.pending_transcriptions }} />
            </div>
          )}
          <div
            className="annotator"
            title={
              session.reviewer
                ? intl.formatMessage({ id: 'app.annotator.reviewed.title' }, { annotator: session.annotator, reviewer: session.reviewer })
                : intl.formatMessage({ id: 'app.annotator' })
            }
          >
            {session.annotator}
            {session.reviewer && (
              <span className="muted">
                {' '}
                <FormattedMessage id="app.annotator.reviewed" values={{ reviewer: session.reviewer }} />
              </span>
            )}
          </div>
          {children}
        </>
      )}
    </header>
  );
}

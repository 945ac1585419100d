import type { ReactNode } from 'react';
import type { ProjectView } from '../../../core/common/project/projectApi';
import type { HeldSessionView } from '../../../core/common/session/sessionPatch';
import type { Tab } from './appState';

const TAB_NAMES: Record<Tab, string> = {
  label: 'Label',
  review: 'Review',
  agreement: 'Agreement',
  adjudicate: 'Adjudicate',
  project: 'Project',
  settings: 'Settings',
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
  const labelled = session ? session.items.filter((i) => i.final_label !== null).length : 0;
  return (
    <header className="topbar">
      <h1 className="brand">Aloud</h1>
      <div className="project" title="project">
        {project.name}
      </div>
      {session && (
        <nav className="tabs" role="tablist">
          {(['label', 'review', 'agreement', 'adjudicate', 'project', 'settings'] as const).map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'tab active' : 'tab'} onClick={() => onTab(t)}>
              {TAB_NAMES[t]}
            </button>
          ))}
        </nav>
      )}
      <div className="spacer" />
      {session && (
        <>
          <div className="progress" title={`${labelled} of ${project.items.length} items labelled`}>
            <div className="progress-bar" style={{ width: `${(100 * labelled) / Math.max(1, project.items.length)}%` }} />
            <span>
              {labelled}/{project.items.length}
              <span className="progress-word"> labelled</span>
            </span>
          </div>
          {session.pending_transcriptions > 0 && <div className="pending">transcribing {session.pending_transcriptions}…</div>}
          <div
            className="annotator"
            title={session.reviewer ? `${session.annotator}'s session, reviewed by ${session.reviewer}` : 'annotator'}
          >
            {session.annotator}
            {session.reviewer && <span className="muted"> · reviewed by {session.reviewer}</span>}
          </div>
          {children}
        </>
      )}
    </header>
  );
}

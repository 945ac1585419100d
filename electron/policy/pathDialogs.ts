import type { PathKind } from '../../core/common/project/projectApi';

/** Electron's showOpenDialog options, as plain data (no 'electron' import here, so it is tested in Node). */
export interface OpenDialogSpec {
  title: string;
  properties: Array<'openDirectory' | 'openFile' | 'createDirectory'>;
  filters?: Array<{ name: string; extensions: string[] }>;
}

/** What each native dialog of the Project screen may pick: folders for projects, an items file for import. */
export const CHOOSE_PATH_DIALOGS: Readonly<Record<PathKind, OpenDialogSpec>> = {
  'project-folder': { title: 'Open an Aloud project folder', properties: ['openDirectory'] },
  'new-project-folder': { title: 'Choose a new or empty folder for the project', properties: ['openDirectory', 'createDirectory'] },
  'items-file': {
    title: 'Choose an items file',
    properties: ['openFile'],
    filters: [{ name: 'Items (JSON Lines, JSON, CSV)', extensions: ['jsonl', 'ndjson', 'json', 'csv'] }],
  },
  'pack-file': {
    title: "Choose an annotator's session pack",
    properties: ['openFile'],
    filters: [{ name: 'Aloud session packs', extensions: ['aloudpack'] }],
  },
};

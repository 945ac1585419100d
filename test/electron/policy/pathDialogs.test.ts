import { describe, expect, it } from 'vitest';
import { PATH_KINDS } from '../../../core/common/project/projectApi';
import { CHOOSE_PATH_DIALOGS } from '../../../electron/policy/pathDialogs';

describe("the Project screen's native dialogs", () => {
  it('pick folders for projects and only items files for import', () => {
    expect(Object.keys(CHOOSE_PATH_DIALOGS).sort()).toEqual([...PATH_KINDS].sort());
    expect(CHOOSE_PATH_DIALOGS['project-folder'].properties).toEqual(['openDirectory']);
    expect(CHOOSE_PATH_DIALOGS['new-project-folder'].properties).toContain('createDirectory');
    expect(CHOOSE_PATH_DIALOGS['items-file'].properties).toEqual(['openFile']);
    expect(CHOOSE_PATH_DIALOGS['items-file'].filters![0]!.extensions).toEqual(['jsonl', 'ndjson', 'json', 'csv']);
  });
});

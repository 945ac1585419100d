import { type CliCommand, parseOptions, printJson } from '../cliSupport';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../project/projectFolder';

export const itemsCommand: CliCommand = {
  name: 'items',
  usage: 'items [--project DIR] [--json]',
  async run(argv, io) {
    const { values } = parseOptions(argv, { project: 'string', json: false });
    const project = await loadProjectConfig(values.project ?? DEMO_PROJECT_DIR);
    const items = await loadProjectItems(project);
    if (values.json) printJson(io, items);
    else for (const item of items) io.out(`${item.id}\t${item.text}\n`);
    return 0;
  },
};

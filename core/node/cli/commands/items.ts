import { parseArgs } from 'node:util';
import { type CliCommand, withUsageErrors, printJson, UsageError } from '../cliSupport';
import { DEMO_PROJECT_DIR, loadProjectConfig, loadProjectItems } from '../../project/projectFolder';
import { ProjectError } from '../../project/projectError';

export const itemsCommand: CliCommand = {
  name: 'items',
  usage: 'items [--project DIR] [--json]',
  async run(argv, io) {
    const { values } = withUsageErrors(() =>
      parseArgs({ args: argv, strict: true, options: {
        project: { type: 'string' },
        json: { type: 'boolean', default: false },
      } }),
    );
    try {
      const project = await loadProjectConfig(values.project ?? DEMO_PROJECT_DIR);
      const items = await loadProjectItems(project);
      if (values.json) printJson(io, items);
      else for (const item of items) io.out(`${item.id}\t${item.text}\n`);
      return 0;
    } catch (e) {
      if (e instanceof ProjectError) throw new UsageError(e.message);
      throw e;
    }
  },
};

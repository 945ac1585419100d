import { parseArgs } from 'node:util';
import { type CliCommand, withUsageErrors, printJson, requireOption, UsageError } from '../cliSupport';
import { initProject } from '../../project/projectFolder';
import { ProjectError } from '../../project/projectError';

export const initCommand: CliCommand = {
  name: 'init',
  usage: 'init --project DIR [--demo] [--json]',
  async run(argv, io) {
    const { values } = withUsageErrors(() =>
      parseArgs({ args: argv, strict: true, options: {
        project: { type: 'string' },
        demo: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
      } }),
    );
    const dir = requireOption(values.project, '--project');
    try {
      const project = await initProject(dir, { demo: values.demo });
      if (values.json) printJson(io, { project: project.dir, config: project.configPath, name: project.config.name });
      else io.out(`Created project "${project.config.name}" in ${project.dir}\n`);
      return 0;
    } catch (e) {
      if (e instanceof ProjectError) throw new UsageError(e.message);
      throw e;
    }
  },
};

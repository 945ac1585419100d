import { type CliCommand, parseOptions, printJson, requireOption } from '../cliSupport';
import { initProject } from '../../project/projectFolder';

export const initCommand: CliCommand = {
  name: 'init',
  usage: 'init --project DIR [--demo] [--json]',
  async run(argv, io) {
    const { values } = parseOptions(argv, { project: 'string', demo: false, json: false });
    const dir = requireOption(values.project, '--project');
    const project = await initProject(dir, { demo: values.demo });
    if (values.json) printJson(io, { project: project.dir, config: project.configPath, name: project.config.name });
    else io.out(`Created project "${project.config.name}" in ${project.dir}\n`);
    return 0;
  },
};

import { parseArgs } from 'node:util';
import type { AlphaResult } from '../../../common/agreement/krippendorff';
import { projectAgreement } from '../../agreement/projectAgreement';
import { ProjectError } from '../../project/projectError';
import { loadProjectConfig } from '../../project/projectFolder';
import { ensureUserDemoProject } from '../../project/userDemoProject';
import { SessionLogError } from '../../../common/session/sessionLog';
import { type CliCommand, printJson, UsageError, withUsageErrors } from '../cliSupport';

const formatAlpha = (r: AlphaResult): string =>
  `${r.alpha === null ? 'undefined' : r.alpha.toFixed(3)} (${r.level}, ${r.pairable_units} ${r.pairable_units === 1 ? 'item' : 'items'} with two or more labels)`;

export const agreementCommand: CliCommand = {
  name: 'agreement',
  summary: "Krippendorff's alpha between annotators, on first (blind) and final labels.",
  usage: 'agreement [--project DIR] [--json]   (without --project: your own copy of the demo, as serve uses)',
  async run(argv, io) {
    const { values } = withUsageErrors(() =>
      parseArgs({ args: argv, strict: true, options: { project: { type: 'string' }, json: { type: 'boolean', default: false } } }),
    );
    let report;
    try {
      report = await projectAgreement(await loadProjectConfig(values.project ?? (await ensureUserDemoProject())));
    } catch (e) {
      if (e instanceof ProjectError || e instanceof SessionLogError) throw new UsageError(e.message);
      throw e;
    }
    for (const warning of report.warnings) io.err(`warning: ${warning}\n`);
    if (values.json) {
      printJson(io, report);
    } else {
      io.out(`annotators: ${report.annotators.join(', ') || '(none)'}\nitems: ${report.items}\n`);
      io.out(`alpha, first (blind) labels: ${formatAlpha(report.blind)}\nalpha, final labels:         ${formatAlpha(report.final)}\n`);
    }
    return 0;
  },
};

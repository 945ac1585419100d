import { defaultRecentFile } from '../../projects/projectsPanel';
import { AppService } from '../../app/appService';
import { startHttpHost } from '../../app/httpHost';
import { ensureRendererBuilt } from '../../app/rendererBuild';
import { ensureUserDemoProject } from '../../project/userDemoProject';
import { forkEngineLauncher } from '../../engine/engineProcessHost';
import { engineScriptFile } from '../../engine/sessionEngine';
import { type CliCommand, UsageError, parseOptions } from '../cliSupport';

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: 'serve [--project DIR] [--port N] [--model FILE] [--models-dir DIR] [--engine-script FILE.json] [--rebuild]',
  async run(argv, io) {
    const { values } = parseOptions(argv, {
      project: 'string',
      port: 'string',
      model: 'string',
      'models-dir': 'string',
      'engine-script': 'string',
      rebuild: false,
    });
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port: "${values.port}" is not a port number (0–65535)`);
    const engineScript = engineScriptFile(values['engine-script']);
    if (engineScript)
      io.err(`aloud serve: transcription is SCRIPTED from ${engineScript} (not whisper.cpp); sessions record model "scripted"\n`);
    const app = await AppService.open({
      projectDir: values.project ?? (await ensureUserDemoProject()),
      mode: 'browser',
      modelFile: values.model ?? null,
      engineScript,
      // browser mode: the engine process is a forked child of this one
      engineLauncher: forkEngineLauncher,
      ...(values['models-dir'] ? { modelsDir: values['models-dir'] } : {}),
      recentFile: defaultRecentFile(),
    });
    const rendererDir = await ensureRendererBuilt((line) => io.err(`${line}\n`), { force: values.rebuild });
    let host;
    try {
      host = await startHttpHost({ app, rendererDir, port });
    } catch (e) {
      await app.close();
      throw new UsageError(`cannot listen on 127.0.0.1:${port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    io.out(
      `Aloud is running for project "${app.projectFolder.config.name}" (${app.projectFolder.dir}; exports go to its exports/ folder).\nOpen: ${host.url}\nPress Ctrl-C to stop (the session is saved as you go).\n`,
    );
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await host.close();
    await app.close();
    return 0;
  },
};

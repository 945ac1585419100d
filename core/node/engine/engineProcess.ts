// Entry of the engine process (title "aloud-engine"), the file the host starts: forked by engineProcessHost.ts (CLI and
// browser mode) or an Electron utility process (electron/main/engineLauncher.ts). The process side is engineProcessServer.ts.
import { serveEngineProcess } from './engineProcessServer';

serveEngineProcess();

// Runs a TypeScript engine entry from source (development, tests, CLI through tsx): the engine worker (its entry in
// workerData) or the engine process (its entry as the first argument). Packaged apps start the bundled .js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData?.entry ?? process.argv[2]);

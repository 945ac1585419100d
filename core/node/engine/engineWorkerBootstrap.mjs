// Runs the TypeScript engine worker from source (development, tests, CLI through tsx); packaged apps bundle
// engineWorker.ts to JavaScript and start that file directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);

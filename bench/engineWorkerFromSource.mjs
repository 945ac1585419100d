// Worker threads do not inherit tsx's loader: this registers it in the worker, then runs the TypeScript entry.
import { register } from 'tsx/esm/api';

register();
await import('./engineWorker.ts');

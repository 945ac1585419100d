// Runs the engine process's TypeScript entry (its URL, the first argument) from source: development, tests and the CLI
// through tsx. Packaged apps and the built CLI start the bundled engineProcess.js directly.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);

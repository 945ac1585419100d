/**
 * The app in browser mode for the act benchmark (bench/scaleActs.ts): the AppService and HTTP host of the checkout
 * given by --repo (this one, or an earlier one to compare with), on a project, without an engine (acts by key). Prints
 * one JSON line {origin, port, token} when it listens; serves until SIGTERM.
 *
 *   tsx bench/scaleActsHost.ts --repo DIR --project DIR
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type * as AppServiceModule from '../core/node/app/appService';
import type * as HttpHostModule from '../core/node/app/httpHost';

const { values } = parseArgs({ options: { repo: { type: 'string' }, project: { type: 'string' } } });
if (!values.repo || !values.project) throw new Error('usage: scaleActsHost.ts --repo DIR --project DIR');
const repo = path.resolve(values.repo);

const { AppService } = (await import(path.join(repo, 'core/node/app/appService.ts'))) as typeof AppServiceModule;
const { startHttpHost } = (await import(path.join(repo, 'core/node/app/httpHost.ts'))) as typeof HttpHostModule;

const app = await AppService.open({ projectDir: path.resolve(values.project), mode: 'browser', openEngine: null });
// the API alone is measured: no page is served
const host = await startHttpHost({ app, rendererDir: await mkdtemp(path.join(tmpdir(), 'aloud-acts-page-')), port: 0 });
process.stdout.write(`${JSON.stringify({ origin: host.origin, port: host.port, token: host.token })}\n`);
await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
await host.close();
await app.close();

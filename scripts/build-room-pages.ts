// Builds the room member pages (renderer/roomPages) into out/room-pages: `npm run build:rooms`, and `npm run build`
// before packaging. A room served from the sources builds them itself when they are missing or stale.
import path from 'node:path';
import { buildRoomPages } from '../core/node/rooms/roomPageAssets';

const { outputs } = await buildRoomPages();
process.stdout.write(`room pages: ${outputs.map((f) => path.basename(f)).join(', ')}\n`);

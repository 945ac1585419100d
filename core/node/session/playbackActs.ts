import { decidePlayback, type Playback } from '../../common/session/playbackRules';
import type { SessionService } from './sessionService';

/** A playback of an item's recording, logged when it stopped (decidePlayback); composed over the session. */
export async function logPlayback(session: SessionService, play: Playback): Promise<void> {
  await session.act((_facts, _at, s) => decidePlayback(s.rules(), s.audioSamples(play.itemId), play));
}

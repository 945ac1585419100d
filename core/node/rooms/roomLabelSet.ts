import { foldRoom } from '../../common/rooms/roomFold';
import { roomLabelRecords } from '../../common/rooms/roomViews';
import type { LabelSet } from '../agreement/agreementSources';
import { readRoomLog } from './roomLogFile';

/** A norming room's log: the revealed items, blind = the vote before the reveal, final = the vote now. */
export async function roomLabelSet(file: string): Promise<LabelSet & { labels: string[] }> {
  const { events, torn } = await readRoomLog(file);
  const state = foldRoom(events, file);
  return {
    source: file,
    records: roomLabelRecords(state),
    hasBlind: true,
    labels: state.labels,
    warnings: torn ? [`${file}:${torn.line}: torn last line (a crash while writing) left out`] : [],
  };
}

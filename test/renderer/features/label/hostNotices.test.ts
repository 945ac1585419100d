import { expect, it } from 'vitest';
import { finalReplaces } from '../../../../renderer/src/features/label/useHostNotices';

const recording = [{ offset_ms: 0, started_at: '2026-12-05T10:00:00Z', stopped_at: null }];

it('a partial or speculative final stays until its utterance is in the transcript or the recording stops, not on every item change', () => {
  // audio saved, signals updated: the item changed, its transcript did not reach utterance 1
  expect(finalReplaces({ segment_refs: [{ utterance: 0, segment: 0 }], recordings: recording }, 1)).toBe(false);
  expect(finalReplaces({ segment_refs: [], recordings: recording }, 0)).toBe(false);
  // the final of utterance 1 (or of a later one) landed
  expect(
    finalReplaces(
      {
        segment_refs: [
          { utterance: 0, segment: 0 },
          { utterance: 1, segment: 0 },
        ],
        recordings: recording,
      },
      1,
    ),
  ).toBe(true);
  expect(finalReplaces({ segment_refs: [{ utterance: 2, segment: 0 }], recordings: recording }, 1)).toBe(true);
  // the recording stopped
  expect(finalReplaces({ segment_refs: [], recordings: [{ ...recording[0]!, stopped_at: '2026-12-05T10:00:09Z' }] }, 0)).toBe(true);
});

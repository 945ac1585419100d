import { describe, expect, it } from 'vitest';
import { labelSetFromCorrections } from '../../../../renderer/src/features/review/SegmentCorrections';

const act = (label: string, source: 'voice' | 'correction' | 'key', at: string) => ({
  label,
  source,
  at,
  audio_ms: null,
  quote: null,
  reviewer: null,
});
const correction = (at: string) => ({
  utterance: 0,
  segment: 0,
  original_text: ' I label this polar.',
  text: ' I label this polite.',
  annotator: 'ana',
  reviewer: 'rey',
  at,
});

/** "Set the label from the corrected text" is offered until it was used on the text as it is now. */
describe('the label from the corrected text', () => {
  it('is set once the last act is that label from a correction after every correction', () => {
    const corrected = { corrections: [correction('2025-01-01T10:00:01.000Z')] };
    expect(labelSetFromCorrections({ ...corrected, label_history: [act('Neutral', 'voice', '2025-01-01T10:00:00.000Z')] }, 'Polite')).toBe(
      false,
    );
    const used = {
      ...corrected,
      label_history: [act('Neutral', 'voice', '2025-01-01T10:00:00.000Z'), act('Polite', 'correction', '2025-01-01T10:00:02.000Z')],
    };
    expect(labelSetFromCorrections(used, 'Polite')).toBe(true);
    // corrected again since: offered again
    expect(labelSetFromCorrections({ ...used, corrections: [...used.corrections, correction('2025-01-01T10:00:03.000Z')] }, 'Polite')).toBe(
      false,
    );
    // a key press after it: the label is not the corrected text's any more
    expect(
      labelSetFromCorrections(
        { ...used, label_history: [...used.label_history, act('Neutral', 'key', '2025-01-01T10:00:04.000Z')] },
        'Polite',
      ),
    ).toBe(false);
  });
});

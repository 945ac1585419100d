import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TranscriptView } from '../../../renderer/src/shared/TranscriptView';

describe('TranscriptView: the text of the utterance being spoken', () => {
  it('a partial is greyed, still being transcribed', () => {
    const html = renderToStaticMarkup(<TranscriptView state={undefined} fillers={[]} listening partial="I label" />);
    expect(html).toContain('<span class="partial" aria-label="still being transcribed">I label</span>');
    expect(html).not.toContain('speculative-final');
  });

  it('the speculative final is the final text in the final style, with a still-listening mark, never the greyed partial', () => {
    const html = renderToStaticMarkup(
      <TranscriptView state={undefined} fillers={[]} listening partial="I label this polite." speculative />,
    );
    expect(html).toMatch(
      /<span class="speculative-final" aria-label="final text, still listening">I label this polite\.<span class="still-listening" title="still listening[^"]*">/,
    );
    expect(html).not.toContain('class="partial"');
  });
});

import type { ReactElement } from 'react';
import { renderToStaticMarkup as renderBare } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { TranscriptView } from '../../../renderer/src/shared/TranscriptView';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';

/** rendered in English, as the app renders it for a browser that says English */
const renderToStaticMarkup = (element: ReactElement, locale: 'en' | 'de' = 'en') =>
  renderBare(
    <IntlProvider locale={locale} messages={appCatalogs[locale]}>
      {element}
    </IntlProvider>,
  );

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

  it('speaks German when the interface does', () => {
    const html = renderToStaticMarkup(<TranscriptView state={undefined} fillers={[]} listening partial="Ich wähle" />, 'de');
    expect(html).toContain('<span class="partial" aria-label="wird noch transkribiert">Ich wähle</span>');
    expect(html).toContain('Transkript <span class="muted">(wörtlich)</span>');
  });
});

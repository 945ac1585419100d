// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import type { ItemSessionState } from '../../../core/common/session/itemState';
import { TranscriptView } from '../../../renderer/src/shared/TranscriptView';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';

/** as the app renders it for a browser that says `locale` */
const inLanguage = (element: ReactElement, locale: 'en' | 'de' = 'en') => (
  <IntlProvider locale={locale} messages={appCatalogs[locale]}>
    {element}
  </IntlProvider>
);

/** The fields the transcript view reads: the final utterances (segments) joined, a commitment where one is said. */
function stateSaid(itemId: string, said: string[], commit?: { phrase: string; label: string }): ItemSessionState {
  const transcript = said.join('');
  const at = commit ? transcript.indexOf(commit.phrase) : -1;
  return {
    item_id: itemId,
    transcript,
    segments: said.map((text, n) => ({ t0_ms: n * 1000, t1_ms: n * 1000 + 900, text })),
    commitments: commit && at >= 0 ? [{ start: at, end: at + commit.phrase.length, label: commit.label, t_ms: null }] : [],
    parse_diagnostics: [],
    label_source: commit ? 'voice' : null,
  } as unknown as ItemSessionState;
}

/** The text of a subtree as a screen reader meets it: aria-hidden parts left out. */
function spokenText(node: Node): string {
  if (node instanceof Element && node.getAttribute('aria-hidden') === 'true') return '';
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  return [...node.childNodes].map(spokenText).join('');
}

/**
 * What a live region announces when it changes: the nodes added inside it (aria-relevant="additions"), and text changed
 * in a node already there — each outside aria-hidden parts, as the screen reader would read them.
 */
function watchAnnouncements(region: Element): () => { added: string[]; changed: string[] } {
  const heard = { added: [] as string[], changed: [] as string[] };
  const hidden = (n: Node | null): boolean => {
    for (let el = n instanceof Element ? n : (n?.parentElement ?? null); el && el !== region; el = el.parentElement)
      if (el.getAttribute('aria-hidden') === 'true') return true;
    return false;
  };
  const take = (records: MutationRecord[]): void => {
    for (const r of records) {
      if (r.type === 'characterData' && !hidden(r.target)) heard.changed.push(r.target.textContent ?? '');
      for (const n of r.addedNodes) if (!hidden(r.target) && spokenText(n).trim() !== '') heard.added.push(spokenText(n));
    }
  };
  const observer = new MutationObserver(take);
  observer.observe(region, { subtree: true, childList: true, characterData: true });
  // the records not yet delivered (the observer's callback runs later, as a microtask)
  return () => {
    take(observer.takeRecords());
    return heard;
  };
}

afterEach(cleanup);

describe('TranscriptView for a screen reader: finals in a log once, the partial as a state', () => {
  it('the transcript is a polite log of additions, named; the partial is seen, not read, and its state is a polite atomic status', () => {
    render(inLanguage(<TranscriptView itemId="demo-01" state={undefined} fillers={[]} listening partial="I label" />));
    const log = screen.getByRole('log', { name: 'transcript' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    expect(log.getAttribute('aria-relevant')).toBe('additions');
    const partial = log.querySelector('.partial')!;
    expect(partial.textContent).toBe('I label');
    expect(partial.getAttribute('aria-hidden')).toBe('true');
    expect(spokenText(log)).not.toContain('I label');
    const status = screen.getByRole('status');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.getAttribute('aria-atomic')).toBe('true');
    expect(status.textContent).toBe('still being transcribed');
    // no name on a generic span (ignored by screen readers, and prohibited)
    expect(document.querySelectorAll('span[aria-label]')).toHaveLength(0);
  });

  it('the speculative final keeps its final look and mark; the status says it is still listening', () => {
    render(
      inLanguage(<TranscriptView itemId="demo-01" state={undefined} fillers={[]} listening partial="I label this polite." speculative />),
    );
    const speculative = document.querySelector('.speculative-final')!;
    expect(speculative.getAttribute('aria-hidden')).toBe('true');
    expect(speculative.querySelector('.still-listening')?.getAttribute('title')).toMatch(/^still listening/);
    expect(document.querySelector('.partial')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('final text, still listening');
  });

  it('no partial: the status is there and empty (a live region must exist before it speaks)', () => {
    render(inLanguage(<TranscriptView itemId="demo-01" state={stateSaid('demo-01', [' Hmm.'])} fillers={[]} listening />));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('a new final is announced once: only its words are added, the finals before stay the same nodes, a growing partial adds nothing', () => {
    const first = [' Hmm, well, this is kind of polite.'];
    const view = (said: string[], partial: string | null, speculative = false) =>
      inLanguage(
        <TranscriptView
          itemId="demo-01"
          state={stateSaid('demo-01', said, { phrase: 'I label this polite', label: 'polite' })}
          fillers={[]}
          listening
          partial={partial}
          speculative={speculative}
        />,
      );
    const { rerender } = render(view(first, null));
    const log = screen.getByRole('log');
    const firstNode = [...log.querySelectorAll('.transcript-text > span')].find((s) => s.textContent === first[0])!;
    expect(firstNode).toBeDefined();
    const heard = watchAnnouncements(log);
    act(() => rerender(view(first, 'I')));
    act(() => rerender(view(first, 'I label')));
    act(() => rerender(view(first, 'I label this polite.', true)));
    expect(heard()).toEqual({ added: [], changed: [] });
    expect(screen.getByRole('status').textContent).toBe('final text, still listening');
    act(() => rerender(view([...first, ' I label this polite.'], null)));
    // the new utterance's words and nothing else, once
    expect(heard().changed).toEqual([]);
    expect(heard().added.join('').trim()).toBe('I label this polite.');
    expect(firstNode.isConnected).toBe(true);
    expect(log.querySelector('mark.commit.final')?.textContent).toBe('I label this polite');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('another item is a new log: its transcript is not announced as if just said', () => {
    const { rerender } = render(
      inLanguage(<TranscriptView itemId="demo-01" state={stateSaid('demo-01', [' One.'])} fillers={[]} listening={false} />),
    );
    const before = screen.getByRole('log');
    rerender(inLanguage(<TranscriptView itemId="demo-02" state={stateSaid('demo-02', [' Two.'])} fillers={[]} listening={false} />));
    const after = screen.getByRole('log');
    expect(after).not.toBe(before);
    expect(after.textContent).toContain('Two.');
  });

  it('speaks German when the interface does', () => {
    render(inLanguage(<TranscriptView itemId="demo-01" state={undefined} fillers={[]} listening partial="Ich wähle" />, 'de'));
    expect(screen.getByRole('log', { name: 'Transkript' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('wird noch transkribiert');
    expect(document.querySelector('.transcript h3')?.textContent).toBe('Transkript (wörtlich)');
    render(
      inLanguage(
        <TranscriptView itemId="demo-01" state={undefined} fillers={[]} listening partial="Ich wähle höflich." speculative />,
        'de',
      ),
    );
    expect(screen.getAllByRole('status')[1]?.textContent).toBe('endgültiger Text, hört noch zu');
  });

  it("says why a mention committed nothing in the interface's language, with the parser's logged reason", () => {
    const state = {
      ...stateSaid('demo-01', ['It is not polite.']),
      parse_diagnostics: [{ kind: 'negated', quote: 'not polite', start: 6, end: 16, stem: 'polite', message: 'negated by "not"' }],
    } as ItemSessionState;
    render(inLanguage(<TranscriptView itemId="demo-01" state={state} fillers={[]} listening={false} />, 'de'));
    expect(document.querySelector('.negation')?.getAttribute('title')).toBe(
      'Verneint – nichts festgelegt. Begründung des Parsers (englisch): negated by "not"',
    );
  });
});

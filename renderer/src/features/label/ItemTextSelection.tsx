import { FormattedMessage, useIntl } from 'react-intl';
import { useMemo, useState } from 'react';
import { textWords, type TextSpan } from '../../../../core/common/session/textSelection';
import type { TextSelection } from '../../../../core/common/session/itemState';

interface Props {
  text: string;
  /** what goes before the text inside the quote (the "Reply" tag of a conversation item) */
  lead?: React.ReactNode;
  /** the selection her session holds (logged), or null */
  selection: TextSelection | null | undefined;
  /** a new selection of whole words, or null to clear it */
  onSelect: (span: TextSpan | null) => void;
}

/**
 * The item text with its words selectable: press on a word and drag to another (or click one, then shift-click
 * another) to select the words between; the selection is logged in the session and shown to a shadow room's
 * trainees. The text reads exactly as before: words are spans around the same characters.
 */
export function ItemTextSelection({ text, lead, selection, onSelect }: Props) {
  const intl = useIntl();
  const words = useMemo(() => textWords(text), [text]);
  /** the word a drag started on, and the one it is over now */
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);

  const spanOf = (a: number, b: number): TextSpan => {
    const start = words[Math.min(a, b)]!.start;
    const end = words[Math.max(a, b)]!.end;
    return { start, end, quote: text.slice(start, end) };
  };
  const shown = drag ? spanOf(drag.from, drag.to) : (selection ?? null);
  const finish = (to: number) => {
    if (!drag) return;
    setDrag(null);
    onSelect(spanOf(drag.from, to));
  };

  const pieces: React.ReactNode[] = [];
  let at = 0;
  words.forEach((w, i) => {
    if (w.start > at) pieces.push(text.slice(at, w.start));
    const selected = shown !== null && w.start >= shown.start && w.end <= shown.end;
    pieces.push(
      <span
        key={i}
        className={selected ? 'sel-word selected' : 'sel-word'}
        onMouseDown={(e) => {
          if (e.button !== 0) return;
          e.preventDefault();
          // shift: extend the selection she has to this word
          const anchor = e.shiftKey && selection ? words.findIndex((x) => x.start === selection.start) : -1;
          setDrag({ from: anchor >= 0 ? anchor : i, to: i });
        }}
        onMouseEnter={() => setDrag((d) => (d ? { ...d, to: i } : d))}
        onMouseUp={() => finish(i)}
      >
        {w.word}
      </span>,
    );
    at = w.end;
  });
  if (at < text.length) pieces.push(text.slice(at));

  return (
    <>
      <blockquote
        className="item-text"
        aria-label={intl.formatMessage({ id: 'label.text.name' })}
        onMouseLeave={() => setDrag(null)}
        title={intl.formatMessage({ id: 'label.text.title' })}
      >
        {lead}
        {pieces}
      </blockquote>
      {selection && (
        <p className="selection-note" aria-label={intl.formatMessage({ id: 'label.text.selected.name' })}>
          <FormattedMessage id="label.text.selected" values={{ quote: selection.quote }} />{' '}
          <button
            type="button"
            className="link clear-selection"
            onClick={() => onSelect(null)}
            title={intl.formatMessage({ id: 'label.text.clear.title' })}
          >
            <FormattedMessage id="label.text.clear" />
          </button>
        </p>
      )}
    </>
  );
}

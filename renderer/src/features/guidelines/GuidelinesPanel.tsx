import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { guidelineIn, hasGuideline, type GuidelineFields } from '../../../../core/common/guidelines/guidelines';
import { useInterfaceLanguage } from '../../shared/i18n/InterfaceLanguage';
import { useShortcuts } from '../../shared/useShortcuts';
import { guidelinesKeyShown, isGuidelinesPress } from './guidelinesKey';
import './guidelines.css';

/** A label or code with its guideline parts, as aloud.yaml or codebook.yaml write them. */
export type GuidedName = { name: string; key?: string } & GuidelineFields & {
    /** a code's single example and counter-example (codebook.yaml) */
    example?: GuidelineFields['definition'];
    counter_example?: GuidelineFields['definition'];
  };

interface Props {
  /** the labels (or codes) whose guidelines the item is annotated under */
  names: readonly GuidedName[];
  kind: 'labels' | 'codes';
  /** the project's language: what a plain text is written in */
  projectLanguage: string;
  /** the names to show first (the item's labels, its unit's codes) */
  emphasis?: readonly string[];
}

/** A code's single example joined to its list, so labels and codes show alike. */
function asGuideline(n: GuidedName): { name: string } & GuidelineFields {
  const join = (one: GuidedName['example'], many: GuidelineFields['examples']): GuidelineFields['examples'] => {
    if (one === undefined) return many;
    if (typeof one === 'string' && (many === undefined || Array.isArray(many)))
      return [one, ...((many as readonly string[] | undefined) ?? [])];
    return many ?? (typeof one === 'string' ? [one] : Object.fromEntries(Object.entries(one).map(([l, t]) => [l, [t]])));
  };
  return {
    name: n.name,
    ...(n.definition !== undefined && n.definition !== '' ? { definition: n.definition } : {}),
    ...(join(n.example, n.examples) !== undefined ? { examples: join(n.example, n.examples)! } : {}),
    ...(join(n.counter_example, n.counter_examples) !== undefined
      ? { counter_examples: join(n.counter_example, n.counter_examples)! }
      : {}),
  };
}

/**
 * The guidelines beside the item, on one key (i) on every screen that annotates: each label's or code's definition,
 * examples and counter-examples in the interface language (else English, else the project's). A named region: opening
 * it moves the focus into it (a screen reader reads it), the key again or Esc closes it and gives the focus back.
 */
export function GuidelinesPanel({ names, kind, projectLanguage, emphasis = [] }: Props) {
  const intl = useIntl();
  const { locale } = useInterfaceLanguage();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const taken = names.flatMap((n) => (n.key !== undefined ? [n.key] : []));

  const close = useCallback(() => {
    setOpen(false);
    const back = returnTo.current;
    returnTo.current = null;
    if (back && back.isConnected) back.focus();
  }, []);

  useShortcuts((press) => {
    // a dialog has the keys while it is open
    if (document.querySelector('[aria-modal="true"]')) return false;
    if (isGuidelinesPress(press, taken)) {
      if (open) close();
      else {
        returnTo.current =
          document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
        setOpen(true);
      }
      return true;
    }
    if (open && press.key === 'Escape' && !press.inField && panel.current?.contains(document.activeElement)) {
      close();
      return true;
    }
    return false;
  });

  useEffect(() => {
    if (open) panel.current?.focus();
  }, [open]);

  if (!open) return null;
  const first = new Set(emphasis);
  const ordered = [...names.filter((n) => first.has(n.name)), ...names.filter((n) => !first.has(n.name))];
  const shown = ordered.map((n) => ({ guided: hasGuideline(asGuideline(n)), g: guidelineIn(asGuideline(n), locale, projectLanguage) }));
  const title = intl.formatMessage({ id: kind === 'labels' ? 'guidelines.labels' : 'guidelines.codes' });
  return (
    <aside className="guidelines-panel" role="region" aria-label={title} ref={panel} tabIndex={-1} data-testid="guidelines-panel">
      <div className="guidelines-head">
        <h2>{title}</h2>
        <button type="button" onClick={close}>
          {intl.formatMessage({ id: 'guidelines.close' })}
        </button>
      </div>
      <p className="muted">{intl.formatMessage({ id: 'guidelines.hint' }, { key: guidelinesKeyShown(taken) })}</p>
      {!shown.some((s) => s.guided) && <p>{intl.formatMessage({ id: 'guidelines.noneAtAll' })}</p>}
      <dl className="guidelines-list">
        {shown.map(({ g, guided }) => (
          <div key={g.name} className={first.has(g.name) ? 'emphasis' : undefined}>
            <dt>{g.name}</dt>
            <dd>
              {g.definition !== null ? (
                <p lang={g.language ?? undefined}>{g.definition}</p>
              ) : (
                !guided && <p className="muted">{intl.formatMessage({ id: 'guidelines.none' })}</p>
              )}
              {g.examples.length > 0 && (
                <>
                  <h3>{intl.formatMessage({ id: 'guidelines.examples' })}</h3>
                  <ul>
                    {g.examples.map((e) => (
                      <li key={e}>“{e}”</li>
                    ))}
                  </ul>
                </>
              )}
              {g.counter_examples.length > 0 && (
                <>
                  <h3>{intl.formatMessage({ id: 'guidelines.counterExamples' })}</h3>
                  <ul>
                    {g.counter_examples.map((e) => (
                      <li key={e}>“{e}”</li>
                    ))}
                  </ul>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}

/** The shortcut list line for the guidelines key, in the interface language (each screen's `?` list adds it). */
export function useGuidelinesShortcut(names: readonly { key?: string }[]): { keys: string[]; what: string } {
  const intl = useIntl();
  const taken = names.flatMap((n) => (n.key !== undefined ? [n.key] : []));
  return { keys: [guidelinesKeyShown(taken)], what: intl.formatMessage({ id: 'guidelines.shortcut' }) };
}

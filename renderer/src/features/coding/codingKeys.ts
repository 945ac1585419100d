import type { CodeDef } from '../../../../core/common/codebook/codebook';
import type { IntlShape } from 'react-intl';
import type { AppMessageId } from '../../shared/i18n/catalogs';
import type { KeyPress } from '../../shared/keyPress';

/** What a key press asks the coding view to do. */
export type CodingAction =
  | { kind: 'unit'; delta: number }
  | { kind: 'protocol'; delta: number }
  | { kind: 'code'; code: string }
  | { kind: 'finish' }
  | { kind: 'undo' }
  | { kind: 'memo' }
  | { kind: 'propose' }
  | { kind: 'help' };

/**
 * The coding view's keyboard rules: ↓/↑ move between units, PgDn/PgUp between protocols, a code's key toggles it on
 * the unit, Enter finishes the item, Ctrl/⌘+Z undoes, `m` writes a memo, `n` proposes the selected words as a code,
 * `?` lists the definitions. A held code key does not toggle again and again; held arrows do move.
 */
export function codingShortcut(press: KeyPress, codes: readonly CodeDef[]): CodingAction | null {
  const command = press.ctrlKey || press.metaKey;
  if (command && !press.altKey && press.key.toLowerCase() === 'z') return press.repeat ? null : { kind: 'undo' };
  if (press.inField || command || press.altKey) return null;
  if (
    (press.onControl === 'link' && press.key === 'Enter') ||
    (press.onControl === 'button' && (press.key === 'Enter' || press.key === ' '))
  )
    return null;
  if (press.key === 'ArrowDown') return { kind: 'unit', delta: 1 };
  if (press.key === 'ArrowUp') return { kind: 'unit', delta: -1 };
  if (press.key === 'PageDown') return { kind: 'protocol', delta: 1 };
  if (press.key === 'PageUp') return { kind: 'protocol', delta: -1 };
  if (press.repeat) return null;
  if (press.key === '?') return { kind: 'help' };
  if (press.key === 'Enter') return { kind: 'finish' };
  if (press.key === 'm' || press.key === 'M') return { kind: 'memo' };
  if (press.key === 'n' || press.key === 'N') return { kind: 'propose' };
  const code = codes.find((c) => c.key !== undefined && c.key === press.key);
  return code ? { kind: 'code', code: code.name } : null;
}

/**
 * Every shortcut of the coding view, with the codebook's keys, for the `?` list, in the interface's language (the
 * shared ShortcutTable's shape). Key names that differ by language (Ctrl/Strg, PgDn/Bild↓) come from the catalog.
 */
export function codingShortcutList(codes: readonly CodeDef[], intl: IntlShape): Array<{ keys: string[]; what: string }> {
  const t = (id: AppMessageId) => intl.formatMessage({ id });
  const keyed = codes.filter((c) => c.key !== undefined).map((c) => c.key!);
  return [
    { keys: ['↓', '↑'], what: t('coding.shortcut.unit') },
    ...(keyed.length > 0 ? [{ keys: keyed, what: t('coding.shortcut.code') }] : []),
    { keys: ['Enter'], what: t('coding.shortcut.finish') },
    { keys: [t('coding.key.undo'), '⌘Z'], what: t('coding.shortcut.undo') },
    { keys: ['m'], what: t('coding.shortcut.memo') },
    { keys: ['n'], what: t('coding.shortcut.propose') },
    { keys: [t('coding.key.pageDown'), t('coding.key.pageUp')], what: t('coding.shortcut.protocol') },
    { keys: ['?'], what: t('coding.shortcut.help') },
    { keys: ['Esc'], what: t('coding.shortcut.close') },
  ];
}

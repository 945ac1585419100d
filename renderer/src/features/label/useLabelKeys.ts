import type { LabelDef } from '../../../../core/common/parser/parseTypes';
import { useShortcuts } from '../../shared/useShortcuts';
import { shortcutAction } from './labelKeys';

interface Options {
  labels: readonly LabelDef[];
  /** a dialog (jump, help) has the keys */
  overlayOpen: boolean;
  /** a change of a completed item's label waits for its yes */
  pendingChange: boolean;
  dropPendingChange: () => void;
  confirmChange: () => Promise<void>;
  open: (overlay: 'jump' | 'help') => void;
  commit: (label: string, source: 'key') => Promise<void>;
  toggleRecording: () => void;
  complete: () => Promise<void>;
  move: (delta: number) => Promise<void>;
}

/** The Label screen's keys: each press read by the one keyboard model (labelKeys) and carried out here. */
export function useLabelKeys(o: Options): void {
  useShortcuts((press, event) => {
    if (o.overlayOpen) return false;
    // a change of a completed item's label waits for its yes: Enter (or its key again) says yes, Esc or anything else no
    if (o.pendingChange && !press.inField && !press.onControl && press.key === 'Escape') {
      o.dropPendingChange();
      return true;
    }
    const action = shortcutAction(press, o.labels);
    if (!action) return false;
    if (o.pendingChange && action.kind === 'complete') {
      void o.confirmChange();
      return true;
    }
    if (o.pendingChange && action.kind !== 'label') o.dropPendingChange();
    switch (action.kind) {
      case 'leave-field':
        (event.target as HTMLElement).blur();
        return true;
      case 'jump':
        o.open('jump');
        return true;
      case 'help':
        o.open('help');
        return true;
      case 'label':
        void o.commit(action.label, 'key');
        return true;
      case 'toggle-recording':
        o.toggleRecording();
        return true;
      case 'complete':
        void o.complete();
        return true;
      case 'move':
        void o.move(action.delta);
        return true;
    }
  });
}

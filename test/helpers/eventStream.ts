import type { AloudEvent } from '../../core/common/contract/aloudApi';

/** An event stream the test feeds by hand, counting how many streams were opened and are open. */
export function eventStream() {
  const listeners = new Set<(event: AloudEvent) => void>();
  let opened = 0;
  return {
    onEvent(listener: (event: AloudEvent) => void): () => void {
      opened++;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (event: AloudEvent) => [...listeners].forEach((l) => l(event)),
    get opened() {
      return opened;
    },
    get open() {
      return listeners.size;
    },
  };
}

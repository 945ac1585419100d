import type { AppMessageId } from './appCatalogs';

// react-intl types `id` from this: an id missing in the English catalog fails the typecheck.
declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: AppMessageId;
    }
  }
}

/** The gold labels domain of the app API; its handler is in core/node/agreement/agreementHandlers.ts (beside projectGold). */
import type { MethodTable } from '../apiSlice/methodSpec';
import type { GoldView } from './goldReport';

export interface GoldApi {
  /** labels with error bars over the project's sessions (`aloud gold`, model auto): competence, uncertain items, confused pairs */
  goldLabels(): Promise<GoldView>;
}

export const GOLD_METHODS = {
  goldLabels: { params: [], scope: 'any-page' },
} as const satisfies MethodTable<GoldApi>;

import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../contract/apiClient';

const ApiContext = createContext<ApiClient | null>(null);

/** The one contract client of the page, given once at the root (main.tsx) instead of passed down through every screen. */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The page's contract client (Electron's bridge or the local HTTP host). */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  // i18n-ignore: a developer's mistake, never shown to a person
  if (!client) throw new Error('useApi: no ApiProvider above this component (main.tsx wraps the app in one)');
  return client;
}

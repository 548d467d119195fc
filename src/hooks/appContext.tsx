import { createContext, type ReactNode, useContext } from 'react';
import type { MarkdownResources } from '../markdown/resources.ts';
import type { ChatSession } from '../session/ChatSession.ts';
import type { AppStorage } from '../state/storage/appStorage.ts';
import type { AppStores } from '../state/stores/appStores.ts';

/**
 * What one running app is made of: its stores, the session that streams into them, where it keeps them,
 * and what its markdown renderer fetches and keeps.
 */
export interface AppServices {
  stores: AppStores;
  session: ChatSession;
  storage: AppStorage;
  markdown: MarkdownResources;
}

const AppContext = createContext<AppServices | null>(null);

export function AppProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppContext.Provider value={services}>{children}</AppContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useServices must be used inside <AppProvider>.');
  return services;
}

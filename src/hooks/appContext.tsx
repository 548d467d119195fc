import { createContext, type ReactNode, useContext } from 'react';
import type { MarkdownResources } from '../markdown/resources.ts';
import type { ChatSession } from '../session/ChatSession.ts';
import type { AppStorage } from '../state/storage/appStorage.ts';
import type { AppStores } from '../state/stores/appStores.ts';
import type { TeamAccount } from '../state/team/teamAccount.ts';

/**
 * What one running app is made of: its stores, the session that streams into them, where it keeps them,
 * what its markdown renderer fetches and keeps, and (team mode) the signed-in person's account.
 */
export interface AppServices {
  stores: AppStores;
  session: ChatSession;
  storage: AppStorage;
  markdown: MarkdownResources;
  /** Team mode, signed in: the person's account here (null in single-person mode, or signed out). */
  team: TeamAccount | null;
  /**
   * Resolves once the app's first screen is on screen: what can wait (the rest of a long history, the
   * messages above a conversation's first screen) waits for it rather than slow that paint down.
   */
  firstPaint: Promise<void>;
  /**
   * Takes what was typed while the last screen's snapshot stood in for the app (src/app/firstScreen),
   * once: the message box adds it to its draft. Empty when nothing was.
   */
  typedEarly: () => string;
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

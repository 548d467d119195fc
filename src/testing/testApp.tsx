import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderOptions, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { AppProvider } from '../hooks/appContext.tsx';
import { I18nProvider } from '../i18n/I18nProvider.tsx';
import { createMarkdownResources, type MarkdownResources } from '../markdown/resources.ts';
import { ChatSession } from '../session/ChatSession.ts';
import { type AppStorage, indexedDbStorage } from '../state/storage/appStorage.ts';
import { type AppStores, createAppStores } from '../state/stores/appStores.ts';
import type { TeamAccount } from '../state/team/teamAccount.ts';

/** A whole app's worth of fresh instances for one test: nothing is shared with any other test. */
export interface TestApp {
  stores: AppStores;
  session: ChatSession;
  /** The app's storage: IndexedDB (fake-indexeddb in tests that import it), opened only if used. */
  storage: AppStorage;
  /** Its markdown resources: nothing fetched yet (`markdownRenderer(app.markdown).load()` fetches the renderer). */
  markdown: MarkdownResources;
  /** Its queries (the server's prices, the models): what is cached, and who observes it. */
  queries: QueryClient;
  /** What the session's requests go to from now on (by default the global `fetch`, looked up per call). */
  setFetch(fetchImpl: typeof fetch): void;
  /** The retry jitter from now on (by default `Math.random`). */
  setRandom(random: () => number): void;
  /** The session, after swapping in what is given: `app.using({ fetchImpl }).send(…)`. */
  using(deps?: { fetchImpl?: typeof fetch; random?: () => number }): ChatSession;
  wrapper(props: { children: ReactNode }): ReactElement;
  render(ui: ReactElement, options?: Omit<RenderOptions, 'wrapper'>): ReturnType<typeof render>;
}

const created: { dispose(): void }[] = [];

export function createTestApp(
  options: {
    storage?: AppStorage;
    stores?: AppStores;
    team?: TeamAccount;
    firstPaint?: Promise<void>;
    typedEarly?: () => string;
  } = {},
): TestApp {
  const stores = options.stores ?? createAppStores();
  const team = options.team ?? null;
  // The first screen is on screen already, unless the test holds it back.
  const firstPaint = options.firstPaint ?? Promise.resolve();
  const typedEarly = options.typedEarly ?? (() => '');
  const storage = options.storage ?? indexedDbStorage();
  let currentFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
  let currentRandom = Math.random;
  const session = new ChatSession({
    stores,
    fetch: (input, init) => currentFetch(input, init),
    random: () => currentRandom(),
  });
  const markdown = createMarkdownResources();
  created.push(session, markdown);
  // No retries and no cache across tests: a failing query fails at once.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <AppProvider services={{ stores, session, storage, markdown, team, firstPaint, typedEarly }}>
        {/* English, as the app starts: one language for the app, not one per component. */}
        <I18nProvider locale="en">{children}</I18nProvider>
      </AppProvider>
    </QueryClientProvider>
  );
  return {
    stores,
    session,
    storage,
    markdown,
    queries: queryClient,
    setFetch(fetchImpl) {
      currentFetch = fetchImpl;
    },
    setRandom(random) {
      currentRandom = random;
    },
    using({ fetchImpl, random } = {}) {
      if (fetchImpl) currentFetch = fetchImpl;
      if (random) currentRandom = random;
      return session;
    },
    wrapper,
    render: (ui, options) => render(ui, { ...options, wrapper }),
  };
}

/** Stops every app the finished test made: its session (streams, page listener) and markdown resources. */
export function disposeTestApps(): void {
  for (const made of created.splice(0)) made.dispose();
}

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UseStore } from 'idb-keyval';
import { type ReactElement, StrictMode, startTransition, useEffect } from 'react';
import { draftAttachmentIds } from '../components/composer/drafts.ts';
import { markdownRenderer } from '../components/markdown/LazyMarkdown.tsx';
import { yieldToEventLoop } from '../core/index.ts';
import { AppProvider, type AppServices } from '../hooks/appContext.tsx';
import { serverPricesQuery } from '../hooks/usePrices.ts';
import { createI18n, type I18n } from '../i18n/i18n.tsx';
import { loadCatalog } from '../i18n/loadCatalog.ts';
import { loadLocaleData } from '../i18n/localeData.ts';
import { resolveLocale } from '../i18n/locales.ts';
import { createMarkdownResources } from '../markdown/resources.ts';
import { webLocks } from '../session/answerLocks.ts';
import { ChatSession } from '../session/ChatSession.ts';
import { conversationIdInPath } from '../state/domain/address.ts';
import type { Conversation } from '../state/domain/types.ts';
import { type AppStorage, indexedDbStorage } from '../state/storage/appStorage.ts';
import { deleteOrphanedAttachments } from '../state/storage/attachmentBlobs.ts';
import { attachmentsInUse } from '../state/storage/attachmentSweep.ts';
import { openDatabase } from '../state/storage/database.ts';
import { forgetScreenSnapshot, localStorageHere } from '../state/storage/screenSnapshot.ts';
import { type AppStores, createAppStores } from '../state/stores/appStores.ts';
import { type Account, accountHere } from '../state/team/account.ts';
import { App, type TeamViews } from './App.tsx';
import { followAddress } from './address.ts';
import { leaveSnapshots } from './firstScreen/leaveSnapshots.ts';
import { takeTyped } from './firstScreen/restoreFirstScreen.ts';
import { firstScreenFonts, warmFonts } from './firstScreen/warmFonts.ts';
import { Localized } from './Localized.tsx';
import { prepareFirstScreen } from './prepareFirstScreen.ts';

// The one place where the running app is made: everything below receives these instances.
const queryClient = new QueryClient();
const stores = createAppStores();
const markdown = createMarkdownResources();

/**
 * What the app runs on for whoever the server says is here: in single-person mode this browser's storage
 * (`single`); in team mode the signed-in person's own database (the server's cache) and their sync with
 * the server, and the views that show them. Team mode's code is fetched only then, not with
 * single-person mode's.
 */
async function servicesFor(
  account: Account,
  single: AppStorage,
  firstPaint: Promise<void>,
  typedEarly: () => string,
): Promise<{ services: AppServices; views: TeamViews | null }> {
  const person = account.mode === 'team' ? account.person : null;
  const team = person ? (await import('./teamServices.ts')).teamServices(stores, person) : null;
  let db: UseStore | undefined;
  const database = () => {
    db ??= openDatabase(team?.databaseName);
    return db;
  };
  const storage = team
    ? indexedDbStorage({
        open: database,
        recordingsElsewhere: team.recordingsElsewhere,
        bodiesElsewhere: team.bodiesElsewhere,
      })
    : single;
  const attachments = team ? team.attachments(storage.attachments) : storage.attachments;
  // Web Locks: one tab of this browser reads each answer the server runs.
  const session = new ChatSession({ stores, attachments, locks: webLocks(navigator.locks) });
  return {
    services: {
      stores,
      session,
      storage: { ...storage, attachments },
      markdown,
      team: team?.account(storage, database) ?? null,
      firstPaint,
      typedEarly,
    },
    views: team?.views ?? null,
  };
}

/** The conversation the address names, read with the first screen's. */
function firstIds(): string[] {
  const named = conversationIdInPath(location.pathname);
  return named === null ? [] : [named];
}

/**
 * The conversation the first screen shows, when it shows an answer: the first paint then waits for the
 * renderer rather than flash plain text.
 */
function openingConversation({ conversations }: AppStores): Conversation | null {
  const { activeId, conversations: all } = conversations.getState();
  const conversation = activeId === null ? undefined : all[activeId];
  return conversation?.messages.some((message) => message.role === 'assistant') ? conversation : null;
}

// Persisted conversations load before the first render, so a reload never flashes an empty app. Saving
// starts once they are loaded (a load that fails overwrites nothing), with the channel to the other tabs.
async function start({ storage, team, firstPaint }: AppServices) {
  // A long history reads its first screen first (with the conversation the address names), the rest once painted.
  const loaded = await storage.load(stores, firstIds());
  startMark('history-read');
  followAddress(stores.conversations);
  storage.persist(stores, loaded, firstPaint);
  // Team mode: in step with the server from now on (what is loaded above is its cache).
  team?.start().catch((error: unknown) => console.warn('Could not start the sync with the server', error));
  deleteOrphanedAttachments(stores.conversations, storage.attachments);
  if (loaded.ok)
    // Files attached but never sent (drafts of closed tabs) go once they are a day old: judged once every
    // conversation is read, or those of the ones not read yet would look unused.
    void allRead(stores).then(() => {
      const inUse = attachmentsInUse(
        Object.values(stores.conversations.getState().conversations),
        stores.storage.getState().unreadable,
        draftAttachmentIds(),
      );
      return storage
        .sweep(inUse, Date.now())
        .catch((error: unknown) => console.warn('Could not sweep unsent attachments', error));
    });
  // Ask the browser not to clear the conversations under storage pressure (it may decide on its own).
  void stores.storage.getState().requestPersistence();
  // The markdown renderer: when the first screen shows an answer, the first paint waits for it (a saved
  // answer never flashes plain text); else it is fetched once the first screen has painted and the page is
  // idle (`prefetchRenderer`), or as the first message is typed or sent if that comes first. A renderer that
  // cannot be fetched resolves null: the answers then show as plain text.
  const opening = openingConversation(stores);
  if (opening) {
    const renderer = await markdownRenderer(markdown).load();
    startMark('renderer-ready');
    if (renderer) {
      await prepareFirstScreen(opening, renderer.engine.processor, {
        width: window.innerWidth,
        height: window.innerHeight,
      });
      startMark('answers-parsed');
    }
  }
}

/** A step of the app's start, named on the page's timeline: `npm run bench:ui` reports where a reload's time goes. */
function startMark(
  step:
    | 'code-running'
    | 'account-known'
    | 'history-read'
    | 'renderer-ready'
    | 'answers-parsed'
    | 'first-render'
    | 'first-commit',
) {
  performance.mark(`hopbase:${step}`);
}

/** Resolves once every stored conversation is read (a long history reads the rest after the first screen). */
function allRead({ storage }: AppStores): Promise<void> {
  return new Promise((resolve) => {
    if (storage.getState().unread.kind === 'none') return resolve();
    const stop = storage.subscribe((state) => {
      if (state.unread.kind !== 'none') return;
      stop();
      resolve();
    });
  });
}

/** Calls `then` once the first screen is committed, not before: what waits for its paint waits for that. */
function WhenCommitted({ then }: { then: () => void }) {
  useEffect(() => then(), [then]);
  return null;
}

/**
 * Runs `then` in a task once the first screen is on screen, never competing with its paint: the
 * first-contentful-paint entry comes when the frame is presented, after its raster and compositing (on a
 * busy machine 50-100 ms after the next animation frame, the fallback where browsers have no such entry).
 * After a snapshot's paint (`snapshotShown`) that entry was the snapshot's: then in a task once the frame
 * after the app's first one has begun, by when the app's frame has been handed to the compositor.
 */
function afterPaint(then: () => void, snapshotShown: boolean) {
  if (snapshotShown) {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(then)));
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    setTimeout(then);
  };
  const observer = PerformanceObserver.supportedEntryTypes?.includes('paint')
    ? new PerformanceObserver((entries) => {
        if (entries.getEntriesByName('first-contentful-paint').length > 0) once();
      })
    : null;
  observer?.observe({ type: 'paint', buffered: true });
  // Not later than a second after the frame, whatever the entry does (a screen without content has none).
  requestAnimationFrame(() => (observer ? setTimeout(once, 1_000) : once()));
}

/**
 * The renderer fetched (and warmed up) after the first screen's paint, when the page is idle: the first
 * answer then neither waits for its chunk nor runs its code cold.
 */
function prefetchRenderer(snapshotShown: boolean) {
  const load = () => void markdownRenderer(markdown).load();
  afterPaint(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2_000 });
    else load();
  }, snapshotShown);
}

/** The first screen's language, loaded before it renders; if its catalog cannot be fetched, English. */
async function firstLanguage(): Promise<I18n | undefined> {
  const locale = resolveLocale(stores.settings.getState().settings.language, navigator.languages);
  try {
    const catalog = await loadCatalog(locale);
    // Its formatters take 10-20 ms in a fresh tab: a task of their own, not one with the rest of the start.
    await yieldToEventLoop();
    return createI18n(locale, catalog);
  } catch (error) {
    console.warn(`The ${locale} messages could not be loaded`, error);
    return undefined;
  }
}

/** The app; in team mode with nobody signed in, the sign-in screen instead, fetched only then. */
async function firstScreen(signedOut: boolean, team: TeamViews | null): Promise<ReactElement> {
  if (!signedOut) return <App team={team} />;
  const { SignInScreen } = await import('../components/account/SignInScreen.tsx');
  return <SignInScreen />;
}

/** Who is here first (team mode's sign-in screen loads nothing), then what they kept, then the first screen. */
async function main() {
  startMark('code-running');
  // React DOM's client in a task of its own, not the module graph's (its chunk is preloaded with the page,
  // `server/preloadWithPage.ts`). Its start creates Error objects: with DevTools open, V8 then re-parses
  // every function on the stack to place each frame, the whole of the chunk that runs it. In the module
  // graph's task that was 20 ms of CPU more.
  const reactDom = import('react-dom/client');
  // Asked now, beside the account's round trip: the first render's answers then have their prices.
  void queryClient.prefetchQuery(serverPricesQuery);
  // The browser's locale data, which the first screen's language needs, loads while the page waits.
  void loadLocaleData();
  // …and its fonts, which its first layout would otherwise wait for.
  void warmFonts(window, firstScreenFonts);
  // Single-person mode's database is read while the server is asked who is here (its answer takes a round
  // trip): used if nobody is signed in, dropped in team mode, where each person has a database of their own.
  const single = indexedDbStorage();
  // A first screen that will show an answer fetches the renderer meanwhile, not after the load.
  void single.readAhead(firstIds()).then((onAnswer) => {
    if (onAnswer) void markdownRenderer(markdown).load();
  });
  const account = await accountHere();
  startMark('account-known');
  stores.team.getState().signedIn(account);
  let firstPainted = () => {};
  const firstPaint = new Promise<void>((resolve) => {
    firstPainted = resolve;
  });
  // The last screen, painted before this code ran (`firstScreen/restoreMain.ts`), until the first commit.
  let snapshot: HTMLElement | null = null;
  const { services, views } = await servicesFor(account, single, firstPaint, () => takeTyped(snapshot));
  const signedOut = account.mode === 'team' && account.person === null;
  if (!signedOut)
    await start(services).catch((error: unknown) => {
      console.error('Could not load saved conversations', error);
      // Its own words: the banner says what failed around them.
      stores.storage.getState().loadFailed(String(error));
    });
  const [initial, screen] = await Promise.all([firstLanguage(), firstScreen(signedOut, views)]);
  startMark('first-render');
  snapshot = document.querySelector<HTMLElement>('#root > .first-screen');
  const snapshotShown = snapshot !== null;
  const committed = () => {
    startMark('first-commit');
    afterPaint(firstPainted, snapshotShown);
    if (!signedOut) prefetchRenderer(snapshotShown);
    // Single-person mode's screen is left for the next load to paint first; team mode keeps none (its
    // conversations are the signed-in person's). The dev server paints none (`firstScreenScript`).
    const kept = localStorageHere();
    if (kept && account.mode === 'single' && import.meta.env.PROD)
      leaveSnapshots({ window, stores, storage: kept });
    else if (kept) forgetScreenSnapshot(kept);
  };
  const { createRoot } = await reactDom;
  // Rendered as a transition: in slices of a few milliseconds, not one long task (a reload on a long
  // conversation made one of 60-100 ms), painted once all of it is there.
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <AppProvider services={services}>
            <Localized initial={initial}>{screen}</Localized>
          </AppProvider>
        </QueryClientProvider>
        <WhenCommitted then={committed} />
      </StrictMode>,
    ),
  );
}

// From a microtask, not the module's top level: a stack captured while the start runs (with DevTools open,
// each request's initiator) then does not hold the top level, whose place V8 would find by re-parsing the
// whole chunk.
queueMicrotask(() => void main());

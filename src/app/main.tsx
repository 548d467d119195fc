import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UseStore } from 'idb-keyval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { SignInScreen } from '../components/account/SignInScreen.tsx';
import { draftAttachmentIds } from '../components/composer/drafts.ts';
import { markdownRenderer } from '../components/markdown/LazyMarkdown.tsx';
import { AppProvider, type AppServices } from '../hooks/appContext.tsx';
import { createI18n, type I18n } from '../i18n/i18n.tsx';
import { loadCatalog } from '../i18n/loadCatalog.ts';
import { resolveLocale } from '../i18n/locales.ts';
import { createMarkdownResources } from '../markdown/resources.ts';
import { ChatSession } from '../session/ChatSession.ts';
import { indexedDbStorage } from '../state/storage/appStorage.ts';
import { deleteOrphanedAttachments } from '../state/storage/attachmentBlobs.ts';
import { attachmentsInUse } from '../state/storage/attachmentSweep.ts';
import { openDatabase, personalDatabaseName } from '../state/storage/database.ts';
import { storedRecording } from '../state/storage/recordingReads.ts';
import { type AppStores, createAppStores } from '../state/stores/appStores.ts';
import { attachmentsWithServer, bodiesFromServer, recordingsFromServer } from '../state/team/fromServer.ts';
import { LocalHistory } from '../state/team/localHistory.ts';
import { ServerParts } from '../state/team/serverParts.ts';
import { ServerSync } from '../state/team/serverSync.ts';
import { idbSyncMemory } from '../state/team/syncMemory.ts';
import { TeamAccount } from '../state/team/teamAccount.ts';
import { type Account, TeamApi } from '../state/team/teamApi.ts';
import { App } from './App.tsx';
import { followAddress } from './address.ts';
import { Localized } from './Localized.tsx';

// The one place where the running app is made: everything below receives these instances.
const queryClient = new QueryClient();
const stores = createAppStores();
const markdown = createMarkdownResources();
const teamApi = new TeamApi();

/**
 * What the app runs on for whoever the server says is here: in single-person mode this browser's storage;
 * in team mode the signed-in person's own database (the server's cache) and their sync with the server.
 */
function servicesFor(account: Account): AppServices {
  const person = account.mode === 'team' ? account.person : null;
  const databaseName = person ? personalDatabaseName(person.email) : undefined;
  let db: UseStore | undefined;
  const database = () => {
    db ??= openDatabase(databaseName);
    return db;
  };
  const storage = indexedDbStorage({
    open: database,
    ...(person && { recordingsElsewhere: recordingsFromServer(teamApi) }),
    ...(person && { bodiesElsewhere: bodiesFromServer(teamApi) }),
  });
  const attachments = person ? attachmentsWithServer(storage.attachments, teamApi) : storage.attachments;
  const session = new ChatSession({ stores, attachments });
  const team =
    person && databaseName
      ? new TeamAccount({
          api: teamApi,
          databaseName,
          forgetHere: async () => {
            await storage.stop();
            globalThis.sessionStorage?.clear();
          },
          sync: new ServerSync({
            conversations: stores.conversations,
            settings: stores.settings,
            team: stores.team,
            api: teamApi,
            memory: idbSyncMemory(database),
            parts: new ServerParts(teamApi, {
              attachment: (id) => storage.attachments.get(id),
              recordingKeptApart: (attemptId) => storedRecording(database(), attemptId),
            }),
          }),
          localHistory: new LocalHistory({
            team: stores.team,
            conversations: stores.conversations,
            email: person.email,
            target: database,
          }),
        })
      : null;
  return { stores, session, storage: { ...storage, attachments }, markdown, team };
}

/** Whether the first screen shows an answer: then it waits for the renderer rather than flash plain text. */
function opensOnAnswer({ conversations }: AppStores): boolean {
  const { activeId, conversations: all } = conversations.getState();
  const messages = activeId === null ? [] : (all[activeId]?.messages ?? []);
  return messages.some((message) => message.role === 'assistant');
}

// Persisted conversations load before the first render, so a reload never flashes an empty app. Saving
// starts once they are loaded (a load that fails overwrites nothing), with the channel to the other tabs.
async function start({ storage, team }: AppServices) {
  const loaded = await storage.load(stores);
  followAddress(stores.conversations);
  storage.persist(stores, loaded);
  // Team mode: in step with the server from now on (what is loaded above is its cache).
  team?.start().catch((error: unknown) => console.warn('Could not start the sync with the server', error));
  deleteOrphanedAttachments(stores.conversations, storage.attachments);
  if (loaded.ok) {
    // Files attached but never sent (drafts of closed tabs) go once they are a day old.
    const inUse = attachmentsInUse(
      Object.values(stores.conversations.getState().conversations),
      stores.storage.getState().unreadable,
      draftAttachmentIds(),
    );
    storage
      .sweep(inUse, Date.now())
      .catch((error: unknown) => console.warn('Could not sweep unsent attachments', error));
  }
  // Ask the browser not to clear the conversations under storage pressure (it may decide on its own).
  void stores.storage.getState().requestPersistence();
  // The markdown renderer: when the first screen shows an answer, the first paint waits for it (a saved
  // answer never flashes plain text); else it is fetched once the first screen has painted and the page is
  // idle (`prefetchRenderer`), or as the first message is typed or sent if that comes first. A renderer that
  // cannot be fetched resolves null: the answers then show as plain text.
  if (opensOnAnswer(stores)) await markdownRenderer(markdown).load();
}

/**
 * The renderer fetched (and warmed up) after the first screen's paint, when the page is idle: the first
 * answer then neither waits for its chunk nor runs its code cold. In a task after the next frame, so that
 * it never competes with the first screen's own code.
 */
function prefetchRenderer() {
  const load = () => void markdownRenderer(markdown).load();
  requestAnimationFrame(() =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2_000 });
      else load();
    }),
  );
}

/** The first screen's language, loaded before it renders; if its catalog cannot be fetched, English. */
async function firstLanguage(): Promise<I18n | undefined> {
  const locale = resolveLocale(stores.settings.getState().settings.language, navigator.languages);
  try {
    return createI18n(locale, await loadCatalog(locale));
  } catch (error) {
    console.warn(`The ${locale} messages could not be loaded`, error);
    return undefined;
  }
}

/** Who is here first (team mode's sign-in screen loads nothing), then what they kept, then the first screen. */
async function main() {
  const account = await teamApi.account();
  stores.team.getState().signedIn(account);
  const services = servicesFor(account);
  const signedOut = account.mode === 'team' && account.person === null;
  if (!signedOut)
    await start(services).catch((error: unknown) => {
      console.error('Could not load saved conversations', error);
      // Its own words: the banner says what failed around them.
      stores.storage.getState().loadFailed(String(error));
    });
  const initial = await firstLanguage();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppProvider services={services}>
          <Localized initial={initial}>{signedOut ? <SignInScreen /> : <App />}</Localized>
        </AppProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  if (!signedOut) prefetchRenderer();
}

void main();

import type { UseStore } from 'idb-keyval';
import { AccountPanel } from '../components/account/AccountPanel.tsx';
import { TeamBanners } from '../components/banners/TeamBanners.tsx';
import type { AppStorage } from '../state/storage/appStorage.ts';
import type { AttachmentBlobs } from '../state/storage/attachmentBlobs.ts';
import { personalDatabaseName } from '../state/storage/database.ts';
import { storedRecording } from '../state/storage/recordingReads.ts';
import { storedBody } from '../state/storage/storedRequests.ts';
import type { AppStores } from '../state/stores/appStores.ts';
import type { Person } from '../state/team/account.ts';
import { attachmentsWithServer, bodiesFromServer, recordingsFromServer } from '../state/team/fromServer.ts';
import { LocalHistory } from '../state/team/localHistory.ts';
import { ServerParts } from '../state/team/serverParts.ts';
import { ServerSync } from '../state/team/serverSync.ts';
import { idbSyncMemory } from '../state/team/syncMemory.ts';
import { TeamAccount } from '../state/team/teamAccount.ts';
import { TeamApi } from '../state/team/teamApi.ts';
import type { TeamViews } from './App.tsx';

/**
 * Team mode's part of the app for a signed-in person, in a chunk of its own: `main.tsx` fetches it only
 * when the server says someone is signed in, so single-person mode's first screen carries none of it.
 */
export function teamServices(stores: AppStores, person: Person) {
  const api = new TeamApi();
  const databaseName = personalDatabaseName(person.email);
  const views: TeamViews = { Banners: TeamBanners, AccountPanel };
  return {
    /** The person's own database in this browser: the server's cache. */
    databaseName,
    recordingsElsewhere: recordingsFromServer(api),
    bodiesElsewhere: bodiesFromServer(api),
    /** The files attached here, and the server's copy of those that are not. */
    attachments: (here: AttachmentBlobs) => attachmentsWithServer(here, api),
    views,
    /** The person's account here, on their storage in this browser (its own files, not the server's). */
    account: (storage: AppStorage, database: () => UseStore) =>
      new TeamAccount({
        api,
        databaseName,
        forgetHere: async () => {
          await storage.stop();
          globalThis.sessionStorage?.clear();
        },
        sync: new ServerSync({
          conversations: stores.conversations,
          settings: stores.settings,
          team: stores.team,
          api,
          memory: idbSyncMemory(database),
          parts: new ServerParts(api, {
            attachment: (id) => storage.attachments.get(id),
            recordingKeptApart: (attemptId) => storedRecording(database(), attemptId),
            bodyKeptApart: (attemptId) => storedBody(database(), attemptId),
          }),
        }),
        localHistory: new LocalHistory({
          team: stores.team,
          conversations: stores.conversations,
          email: person.email,
          target: database,
        }),
      }),
  };
}

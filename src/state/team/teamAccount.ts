import type { LocalHistory } from './localHistory.ts';
import type { ServerSync } from './serverSync.ts';
import type { TeamApi } from './teamApi.ts';

export type SignOutResult =
  | { ok: true }
  /** Changes made here are not on the server yet (offline): signing out now keeps them here only. */
  | { ok: false; kind: 'pending'; pending: number }
  | { ok: false; kind: 'failed'; reason: string };

export interface TeamAccountOptions {
  api: TeamApi;
  sync: ServerSync;
  localHistory: LocalHistory;
  /** The person's database in this browser, deleted at sign-out when the server holds all of it. */
  databaseName: string;
  /**
   * Stops keeping this page's state in the browser and forgets what the tab holds of the person (the
   * unload journal, a key kept for the tab): the next person to sign in here must not inherit it.
   */
  forgetHere: () => Promise<void>;
  deleteDatabase?: (name: string) => void;
}

/** What the server's database found for a search: the newest ids that match, and how many match in all. */
export interface ServerFound {
  ids: string[];
  total: number;
}

/** How many of a search's matches the server names: the sidebar shows at most 50 of them. */
const SEARCH_RESULTS = 100;

/** What a signed-in person does with their account here: add what this browser kept before, sign out. */
export class TeamAccount {
  constructor(private readonly options: TeamAccountOptions) {}

  /** In step with the server from now on; then the history kept here before signing in is offered. */
  async start(): Promise<void> {
    await this.options.sync.start();
    await this.options.localHistory.offer();
  }

  get localHistory(): LocalHistory {
    return this.options.localHistory;
  }

  /**
   * The sidebar's search, run in the server's database (the server holds every conversation; this browser
   * may not have read them all yet): what matches, newest first, or null when the server cannot be asked
   * (offline), and the search runs on what this browser holds.
   */
  async search(query: string): Promise<ServerFound | null> {
    const found = await this.options.api.search(query, SEARCH_RESULTS);
    return found.ok ? { ids: found.ids, total: found.total } : null;
  }

  /**
   * Sends what is pending, then ends the session on the server. The copy this browser keeps goes with it
   * (someone else may use this browser next), unless changes made here would go with it: then, unless
   * `anyway`, nothing is done and the caller asks the person; signed out anyway, they stay in this browser
   * and are sent when the person signs in here again.
   */
  async signOut(anyway = false): Promise<SignOutResult> {
    const {
      api,
      sync,
      databaseName,
      deleteDatabase = (name) => indexedDB.deleteDatabase(name),
    } = this.options;
    const pending = await sync.flush();
    if (pending > 0 && !anyway) return { ok: false, kind: 'pending', pending };
    const ended = await api.signOut();
    if (!ended.ok && ended.kind !== 'signed-out')
      return {
        ok: false,
        kind: 'failed',
        reason: ended.kind === 'unreachable' ? ended.reason : ended.reason,
      };
    await sync.stop();
    await this.options.forgetHere();
    // Deleted once this page lets go of it (the deletion waits for its open connections to close).
    if (pending === 0) deleteDatabase(databaseName);
    return { ok: true };
  }
}

import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { Conversation } from '../domain/types.ts';
import {
  conversationPrefix,
  deletedPrefix,
  type ReadRecord,
  readConversationRecord,
  readSettingsRecord,
  recordRevision,
  settingsKey,
  type UnreadableRecord,
} from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import { applyStoredConversations, applyStoredSettings } from './applyStored.ts';
import type { ChangeFeed, StoredChange } from './changeFeed.ts';
import { prefixRange, readRange, withStored } from './database.ts';
import type { KnownState } from './knownState.ts';
import { withLocalRecordings } from './storedConversation.ts';
import { joinBodies } from './storedRequests.ts';
import { asStoredSettings } from './storedSettings.ts';

/** How many older conversations are checked in one task: each chunk's values arrive in a task of their own. */
const OLDER_CHUNK = 50;

/** A batch of the older conversations, asked for by `readOlder`: the keys after `after`, at most `count`. */
interface OlderAsked {
  after: string | null;
  count: number;
  resolve(read: OlderRead): void;
  reject(error: unknown): void;
}

/** What a batch of older conversations held. */
export interface OlderRead {
  /** The key to read on after; null: every stored conversation is read. */
  goOnAfter: string | null;
  /** How many of its records this tab had not read yet (readable or not). */
  unread: number;
}

/** A conversation's record as read (undefined: none), its bodies joined in, and its tombstone. */
interface ReadConversation {
  id: string;
  read: ReadRecord | undefined;
  tombstone: unknown;
  /** The record as stored (reported with its reason when it cannot be read). */
  value: unknown;
}

/**
 * This tab's side of the change feed (`changeFeed.ts`; the other tabs today): after each committed write it
 * announces what it stored; when another says it stored something, it notes what to read, and before its
 * next write reads those records from IndexedDB and takes them in. When changes may have been missed, it
 * reads everything.
 */
export class ChangesFromElsewhere {
  /** What the others said they stored, not yet read. */
  private readonly remote = new Map<string, number>();
  private remoteSettings = false;
  private resync = false;
  /** The next batch of the stored conversations the load left for later (`readOlder`). */
  private older: OlderAsked | null = null;

  constructor(
    private readonly db: UseStore,
    private readonly stores: AppStores,
    private readonly known: KnownState,
    private readonly feed: ChangeFeed | null,
  ) {}

  /** Notes what another said it stored. */
  heard(change: StoredChange): void {
    for (const { id, revision } of change.conversations)
      this.remote.set(id, Math.max(revision, this.remote.get(id) ?? 0));
    this.remoteSettings ||= change.settings;
  }

  /**
   * The next `count` stored conversations by key after `after` (null: from the first), of which this tab
   * has not read some yet (a long history's load reads its first screen first): read with the next
   * catch-up, by key ranges, their request bodies left in the database until asked for, and added to the
   * list by date, below the newer ones. Resolves once they are in the list.
   */
  readOlder(after: string | null, count: number): Promise<OlderRead> {
    return new Promise((resolve, reject) => {
      this.older = { after, count, resolve, reject };
    });
  }

  /** What the others said meanwhile may have been missed: everything is read again. */
  missedSome(): void {
    this.resync = true;
  }

  get pending(): boolean {
    return this.remote.size > 0 || this.older !== null || this.remoteSettings || this.resync;
  }

  /** Reads what other tabs stored since this tab last knew, and takes it in. */
  async catchUp(): Promise<void> {
    const older = this.older;
    this.older = null;
    try {
      const read = await this.readRemote(older);
      if (older && read) older.resolve(read);
    } catch (error) {
      // Whoever asked for the older ones says so; a failure to read the others' changes is said here.
      if (older) older.reject(error);
      else console.warn('Could not read what was stored elsewhere', error);
    }
  }

  /** Tells the others what this tab stored (if it cannot, they read the records when they next write). */
  announce(change: StoredChange): void {
    this.feed?.announce(change);
  }

  private async readRemote(olderAsked: OlderAsked | null): Promise<OlderRead | null> {
    const { bases } = this.known;
    const wanted = [...this.remote]
      .filter(([id, revision]) => {
        const known = bases.get(id)?.revision;
        return known === null || known === undefined || revision > known;
      })
      .map(([id]) => id);
    this.remote.clear();
    const wantSettings = this.remoteSettings;
    this.remoteSettings = false;
    const everything = this.resync;
    this.resync = false;
    if (!wanted.length && !wantSettings && !everything && !olderAsked) return null;

    const { conversations, settings, bodies, unreadable, olderRecords, goOnAfter } = await this.read(
      wanted,
      wantSettings || everything,
      everything,
      olderAsked,
    );
    // The older ones this tab has not read yet: with the others' changes unless read among them.
    const older = new Set(olderRecords.map((c) => c.id));
    const readAlready = new Set(conversations.map((c) => c.id));
    conversations.push(...olderRecords.filter((c) => !readAlready.has(c.id)));
    for (const id of bodies) this.known.storedBodies.add(id);
    this.stores.storage.getState().noteUnreadable(unreadable);
    const conversationStore = this.stores.conversations;
    const upserts: Conversation[] = [];
    const loadedLater: Conversation[] = [];
    const unreadableLater: UnreadableRecord[] = [];
    const removals: string[] = [];
    const from = new Map<string, Conversation | null>();
    for (const { id, read, tombstone, value } of conversations) {
      const base = bases.get(id);
      const known = base?.revision ?? null;
      if (tombstone !== undefined) {
        const revision = recordRevision(tombstone);
        if (base?.conversation === null && known !== null && revision <= known) continue;
        bases.set(id, { revision, conversation: null });
        if (conversationStore.getState().conversations[id]) removals.push(id);
        continue;
      }
      if (read === undefined) continue;
      if (read.kind === 'unreadable') {
        // Another tab's damaged record is that tab's to report; one this tab's load left for later is this one's.
        if (older.has(id))
          unreadableLater.push({
            key: conversationPrefix + id,
            what: 'conversation',
            reason: read.reason,
            value,
          });
        continue;
      }
      if (known !== null && read.revision <= known) continue;
      // A record newer than the tombstone this tab knew, with the tombstone gone: a restored backup
      // brought it back (`writeRestored`); no other write ever stores a record past a tombstone.
      const stored = withLocalRecordings(
        read.conversation,
        conversationStore.getState().conversations[read.conversation.id],
      );
      from.set(id, base?.conversation ?? null);
      bases.set(id, { revision: read.revision, conversation: stored });
      (older.has(id) ? loadedLater : upserts).push(stored);
    }
    applyStoredConversations(conversationStore, this.known, upserts, removals, from);
    applyStoredConversations(conversationStore, this.known, loadedLater, [], from, 'byDate');
    this.stores.storage.getState().noteUnreadable(unreadableLater);
    if (settings !== undefined) {
      const read = readSettingsRecord(settings);
      if (read) applyStoredSettings(this.stores.settings, this.known, asStoredSettings(read.settings), {});
    }
    return { goOnAfter, unread: older.size };
  }

  /**
   * The records of `ids` (or of every conversation) with their tombstones, the request bodies this tab
   * lacks read in the same transaction, the settings record if asked, and the batch of older conversations
   * asked for (as stored: no tombstone stands beside a record a deletion removes in its own transaction,
   * and those the load found are known; their bodies are read when asked for).
   */
  private async read(ids: string[], withSettings: boolean, everything: boolean, older: OlderAsked | null) {
    const conversations: ReadConversation[] = [];
    /** Attempts whose request record was read (readable or not), and those that could not be. */
    const bodies: string[] = [];
    const unreadable: UnreadableRecord[] = [];
    let settings: unknown;
    const olderRecords: ReadConversation[] = [];
    let goOnAfter: string | null = null;
    const local = this.stores.conversations.getState().conversations;
    await this.db('readonly', (store) => {
      const add = (id: string, value: unknown, tombstone: unknown) => {
        const read = value === undefined ? undefined : readConversationRecord(conversationPrefix + id, value);
        // A deleted conversation's record counts for nothing: the tombstone wins.
        if (read?.kind !== 'conversation' || tombstone !== undefined) {
          conversations.push({ id, read, tombstone, value });
          return;
        }
        joinBodies(store, read.conversation, local[id], (conversation, found, damaged) => {
          conversations.push({ id, read: { ...read, conversation }, tombstone, value });
          bodies.push(...found.keys());
          unreadable.push(...damaged);
        });
      };
      if (everything) {
        const keys = store.getAllKeys(prefixRange(conversationPrefix));
        const values = store.getAll(prefixRange(conversationPrefix));
        const deadKeys = store.getAllKeys(prefixRange(deletedPrefix));
        const dead = store.getAll(prefixRange(deletedPrefix));
        dead.onsuccess = () => {
          const tombstones = new Map(
            (deadKeys.result as string[]).map((k, i) => [k.slice(deletedPrefix.length), dead.result[i]]),
          );
          (keys.result as string[]).forEach((k, i) => {
            const id = k.slice(conversationPrefix.length);
            add(id, values.result[i], tombstones.get(id));
            tombstones.delete(id);
          });
          for (const [id, tombstone] of tombstones) add(id, undefined, tombstone);
        };
      } else for (const id of ids) withStored(store, id, (value, tombstone) => add(id, value, tombstone));
      if (withSettings) {
        const request = store.get(settingsKey);
        request.onsuccess = () => {
          settings = request.result;
        };
      }
      if (older)
        readRange(
          store,
          { prefix: conversationPrefix, after: older.after, count: older.count, chunk: OLDER_CHUNK },
          (records) => {
            // Checked as each range arrives, not all at the end: no task reads the whole batch.
            for (const [key, value] of records) {
              const id = key.slice(conversationPrefix.length);
              // Known already: read with the first screen, or changed by another tab meanwhile.
              if (!this.known.bases.has(id))
                olderRecords.push({
                  id,
                  read: readConversationRecord(key, value),
                  tombstone: undefined,
                  value,
                });
            }
          },
          (after) => {
            goOnAfter = after;
          },
        );
      return promisifyRequest(store.transaction);
    });
    return { conversations, settings, bodies, unreadable, olderRecords, goOnAfter };
  }
}

import { entries, promisifyRequest, type UseStore } from 'idb-keyval';
import { mergeConversation, sameContent } from '../domain/merge.ts';
import { joinRestored } from '../domain/presets.ts';
import type { Attempt, Conversation, Preset, SavedTool } from '../domain/types.ts';
import { withoutUserInfo } from '../formats/conversationExport.ts';
import {
  conversationPrefix,
  deletedPrefix,
  joinRecording,
  readConversationRecord,
  readSettingsNoting,
  readSettingsRecord,
  recentKey,
  requestPrefix,
  type StoredTrace,
  settingsKey,
  tracePartKeys,
  tracePartPrefix,
  tracePrefix,
  type UnreadableRecord,
} from '../formats/records.ts';
import { defaultSettings, type Settings, sameGateway } from '../stores/settingsStore.ts';
import type { ChangeFeed } from './changeFeed.ts';
import { putRecording, putRequest, setAside, withStored } from './database.ts';
import { attemptsOf, recordOf, settleInterrupted, withRecordings } from './storedConversation.ts';
import { bodiesIn, noteRequestRecord, type StoredBody, withBodies } from './storedRequests.ts';

/** The database side of a backup (`backup.ts` makes and checks the file): everything read, a restore written. */

/** Everything this browser stores that the app can read: what a backup is made of. */
export interface StoredEverything {
  /** Every conversation not deleted, its recordings and request bodies joined in, exactly as stored. */
  conversations: Conversation[];
  /** The settings record's readable fields (nothing filled in; the API key among them when remembered). */
  settings: Partial<Settings>;
  /** Records that could not be read: a backup leaves them out (they stay in the database, unchanged). */
  unreadable: UnreadableRecord[];
}

/**
 * Reads every record, as `loadState` does but without touching any store or the unload journal. Throws
 * when the database cannot be read at all.
 */
export async function readEverything(db: UseStore): Promise<StoredEverything> {
  const all = await entries<IDBValidKey, unknown>(db);
  const unreadable: UnreadableRecord[] = [];
  const traces = new Map<string, StoredTrace>();
  const heads: [string, unknown][] = [];
  const parts = new Map<string, unknown>();
  const bodies = new Map<string, StoredBody>();
  const deleted = new Set<string>();
  const records: [string, unknown][] = [];
  let settingsValue: unknown;
  for (const [key, value] of all) {
    if (typeof key !== 'string') continue;
    if (key.startsWith(tracePrefix)) heads.push([key, value]);
    else if (key.startsWith(tracePartPrefix)) parts.set(key, value);
    else if (key.startsWith(requestPrefix)) noteRequestRecord(key, value, bodies, unreadable);
    else if (key.startsWith(conversationPrefix)) records.push([key, value]);
    else if (key.startsWith(deletedPrefix)) deleted.add(key.slice(deletedPrefix.length));
    else if (key === settingsKey) settingsValue = value;
  }
  for (const [key, head] of heads) {
    const attemptId = key.slice(tracePrefix.length);
    const trace = joinRecording(
      head,
      tracePartKeys(attemptId, head).map((part) => parts.get(part)),
    );
    if (typeof trace === 'string') unreadable.push({ key, what: 'recording', reason: trace, value: head });
    else traces.set(attemptId, trace);
  }
  const conversations: Conversation[] = [];
  for (const [key, value] of records) {
    const read = readConversationRecord(key, value);
    if (read.kind === 'unreadable')
      unreadable.push({ key, what: 'conversation', reason: read.reason, value });
    else if (!deleted.has(read.conversation.id))
      conversations.push(withBodies(withRecordings(read.conversation, traces), bodies));
  }
  const settings = readSettingsNoting(settingsValue, unreadable);
  return { conversations, settings: settings?.settings ?? {}, unreadable };
}

/** What a restore writes: conversations with their recordings in their attempts, and settings. */
export interface RestoreSet {
  conversations: Conversation[];
  /** Settings fields to apply; the API key and whether it is remembered are never taken from here. */
  settings: Partial<Settings> | null;
}

/** What a restore did, conversation by conversation (their ids). */
export interface RestoreOutcome {
  /** Not stored here before. */
  added: string[];
  /** Deleted here (a tombstone), brought back: a person restoring a backup wants what it holds. */
  revived: string[];
  /** Stored here too, joined with the backup's copy and changed by it. */
  joined: string[];
  /** Stored here already with everything the backup holds: not written. */
  unchanged: string[];
  /** Recordings written, and those the database held already. */
  recordingsWritten: number;
  recordingsKept: number;
  settings: 'applied' | 'unchanged' | 'none';
  /**
   * The backup's gateway address where it differs from the one stored here: never written by a restore
   * (the API key would go to it, a model list at once), but offered for the person to confirm. Null: none.
   */
  gateway: string | null;
  /** Unreadable records that stood where a restored one goes: copied to `set-aside:` first, never lost. */
  setAside: UnreadableRecord[];
  /** Whether the other tabs (and this one) were told on the change feed. */
  announced: boolean;
}

/** Settings a restore never takes: the key stays where it is, and so does the choice to remember it. */
const keptOnRestore = new Set<string>(['apiKey', 'rememberKey']);

/**
 * Writes a restored set through the same path as a tab's own writes, in one transaction: each
 * conversation is read with its tombstone and joined with the stored copy by `mergeConversation` (the join
 * of two tabs: messages and attempts united by id, nothing lost, nothing duplicated; the title here wins),
 * written under the next revision only when that changes something, so restoring the same backup twice
 * writes nothing the second time. A deleted conversation is brought back (its tombstone removed, its
 * revision past the tombstone's, so every tab takes it). Recordings are written where the restored attempt
 * is the one kept, or where the database lacks them; settings are written as fields on top of the stored
 * record. Once committed, what changed is announced on `feed` like any tab's save: the other tabs, and
 * this one's own persistence listening on a feed of its own, read the records and update.
 */
export async function writeRestored(
  db: UseStore,
  set: RestoreSet,
  feed: ChangeFeed | null,
  now = Date.now(),
): Promise<RestoreOutcome> {
  const outcome: RestoreOutcome = {
    added: [],
    revived: [],
    joined: [],
    unchanged: [],
    recordingsWritten: 0,
    recordingsKept: 0,
    settings: set.settings ? 'unchanged' : 'none',
    gateway: null,
    setAside: [],
    announced: false,
  };
  const stored: { id: string; revision: number }[] = [];
  const patch = Object.fromEntries(
    Object.entries(set.settings ?? {}).filter(
      ([key, value]) => !keptOnRestore.has(key) && value !== undefined,
    ),
  );
  await db('readwrite', (store) => {
    const keep = (key: string, value: unknown, what: UnreadableRecord['what'], reason: string) => {
      outcome.setAside.push(setAside(store, key, value, what, reason, now));
    };
    for (const original of set.conversations) {
      const { id } = original;
      const key = conversationPrefix + id;
      withStored(store, id, (record, tombstone, storedRevision) => {
        const revision = storedRevision + 1;
        const incoming = settleInterrupted(original);
        let here: Conversation | null = null;
        if (tombstone === undefined && record !== undefined) {
          const read = readConversationRecord(key, record);
          if (read.kind === 'unreadable') keep(key, record, 'conversation', read.reason);
          else here = read.conversation;
        }
        // A body kept apart here is the backup's too (a body never changes): joined in from it, so that one
        // this database lacks is written again.
        const content = withBodies(here ? mergeConversation(here, incoming) : incoming, bodiesIn(incoming));
        // Recordings: the backup's goes with its attempt where that is the one kept (new here, or further
        // along); where the copy here is kept, so is its recording, unless this database lacks it.
        const fromBackup = new Map(attemptsOf(incoming).map((a) => [a.id, a]));
        const writes: [string, StoredTrace][] = [];
        const checks: {
          attempt: Attempt;
          restored: Attempt;
          request: IDBRequest<IDBValidKey | undefined>;
        }[] = [];
        for (const attempt of attemptsOf(content)) {
          const restored = fromBackup.get(attempt.id);
          if (!restored || (restored.trace.items.length === 0 && restored.trace.raw === '')) continue;
          if (attempt === restored) writes.push([attempt.id, restored.trace]);
          else checks.push({ attempt, restored, request: store.getKey(tracePrefix + attempt.id) });
        }
        const bodyChecks = attemptsOf(content)
          .filter((a) => !a.request.bodyMissing)
          .map((attempt) => ({ attempt, request: store.getKey(requestPrefix + attempt.id) }));
        const finish = () => {
          for (const { attempt, restored, request } of checks) {
            const same =
              attempt.trace.bytes === restored.trace.bytes &&
              attempt.trace.endedAt === restored.trace.endedAt;
            if (request.result === undefined && same) writes.push([attempt.id, restored.trace]);
            else outcome.recordingsKept++;
          }
          for (const [attemptId, trace] of writes) putRecording(store, attemptId, trace);
          outcome.recordingsWritten += writes.length;
          // Bodies with no record of their own: one in this database's record from before is not lacking
          // unless that record is written anyway (it then keeps no body).
          const lacking = bodyChecks.filter((c) => c.request.result === undefined).map((c) => c.attempt);
          const inline = bodiesIn(here ?? undefined);
          const same = here !== null && sameContent(recordOf(content), recordOf(here));
          if (same && writes.length === 0 && lacking.every((a) => inline.has(a.id))) {
            outcome.unchanged.push(id);
            return;
          }
          for (const { id: attemptId, request } of lacking) putRequest(store, attemptId, request.body);
          // A recording or body added alone still raises the revision: the tabs then read the record and fetch it.
          store.put({ ...recordOf(content), revision }, key);
          // The list of those last worked on may not name what came back: the next load reads them all.
          store.delete(recentKey);
          if (tombstone !== undefined) {
            store.delete(deletedPrefix + id);
            outcome.revived.push(id);
          } else (here ? outcome.joined : outcome.added).push(id);
          stored.push({ id, revision });
        };
        // Requests of one transaction complete in order: when the last check is done, all are.
        const last = bodyChecks.at(-1)?.request ?? checks.at(-1)?.request;
        if (last) last.onsuccess = finish;
        else finish();
      });
    }
    if (set.settings) {
      const request = store.get(settingsKey);
      request.onsuccess = () => {
        const read = readSettingsRecord(request.result);
        if (read === null) keep(settingsKey, request.result, 'settings', 'not a settings record');
        const base = (read === null || request.result === undefined ? {} : request.result) as Record<
          string,
          unknown
        >;
        // Compared as the app sees them (a field stored as its default is no change), and only what differs
        // is written, on top of what is stored.
        const current: Record<string, unknown> = { ...defaultSettings, ...read?.settings };
        // A backup's presets (by id) and saved tools (by name) join those here rather than replace them:
        // one made since stays.
        const joined = Object.entries(patch).map(([key, value]): [string, unknown] =>
          key === 'presets'
            ? [key, joinRestored((current.presets ?? []) as Preset[], value as Preset[], (p) => p.id)]
            : key === 'toolLibrary'
              ? [
                  key,
                  joinRestored(
                    (current.toolLibrary ?? []) as SavedTool[],
                    value as SavedTool[],
                    (t) => t.name,
                  ),
                ]
              : [key, value],
        );
        const changes = joined.filter(([key, value]) => {
          if (key !== 'baseUrl') return !sameContent(current[key], value);
          // The gateway's address as backed up, without its user and password: those stay as they are
          // here. Another address is only offered: the person says whether their key may go there.
          const here = typeof current.baseUrl === 'string' ? withoutUserInfo(current.baseUrl) : '';
          if (typeof value === 'string' && !sameGateway(value, here)) outcome.gateway = value.trim();
          return false;
        });
        if (read !== null && changes.length === 0) return;
        const merged = { ...base, ...Object.fromEntries(changes) };
        store.put(merged, settingsKey);
        outcome.settings = 'applied';
      };
    }
    return promisifyRequest(store.transaction);
  });
  // If it cannot be announced, the other tabs read the records when they next load or write.
  if (feed && (stored.length || outcome.settings === 'applied'))
    outcome.announced = feed.announce({ conversations: stored, settings: outcome.settings === 'applied' });
  return outcome;
}

import { promisifyRequest, type UseStore } from 'idb-keyval';
import { valuesOf } from '../domain/idRecord.ts';
import type { PartLoad, PartLoads, PartLoadsStore } from '../domain/partLoads.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import type { UnreadableRecord } from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { KnownState } from './knownState.ts';
import { attemptsOf } from './storedConversation.ts';

/** Where parts this browser lacks may be found (the team server), by attempt id; the ones found. */
export type PartsElsewhere<T> = (attemptIds: readonly string[]) => Promise<Map<string, T>>;

/**
 * One kind of part an attempt's conversation record leaves out, kept in a record of its own
 * (`<prefix><attemptId>`): who asks for it, how its record is read, and how it goes back into its attempt.
 */
export interface PartKind<T> {
  /** The store where it is asked for, and told how reading it went. */
  loads(stores: AppStores): PartLoadsStore;
  prefix: string;
  what: UnreadableRecord['what'];
  /**
   * Reads `attemptId`'s part in `store`'s transaction, then calls `done` with it (or why it cannot be
   * used; undefined: not there) and the value of its record (`<prefix><attemptId>`).
   */
  read(
    store: IDBObjectStore,
    attemptId: string,
    done: (part: T | string | undefined, value: unknown) => void,
  ): void;
  /** Whether `attempt` lacks it still (it may have arrived meanwhile). */
  apart(attempt: Attempt): boolean;
  /** `conversation` with the parts of `found` in their attempts (the same object when none is its). */
  fill(conversation: Conversation, found: ReadonlyMap<string, T>): Conversation;
  /** Notes that the database holds `attempt`'s part as memory now does: nothing of it to write. */
  stored(known: KnownState, attempt: Attempt): void;
  /**
   * Whether one found elsewhere is kept in this browser's database from then on (written with its
   * conversation's next record, as a part made here is); else it is read there again when next asked for.
   */
  keptHere: boolean;
}

/** `PartKind.read` for a part kept in one record, `<prefix><attemptId>`, its value read by `read`. */
export function oneRecord<T>(prefix: string, read: (value: unknown) => T | string): PartKind<T>['read'] {
  return (store, attemptId, done) => {
    const request = store.get(prefix + attemptId);
    request.onsuccess = () => {
      const value: unknown = request.result;
      done(value === undefined ? undefined : read(value), value);
    };
  };
}

/**
 * Reads the parts of `kind` that its store asks for (the inspector, an export, a Retry) from the database,
 * and those it lacks from `elsewhere`, and puts them into their attempts through the conversations
 * store's own action; the store then says what became of each: gone from it once in memory, else why not.
 * Returns the function that stops listening.
 */
export function readPartsWhenAsked<T>(
  db: UseStore,
  stores: AppStores,
  known: KnownState,
  stopped: () => boolean,
  kind: PartKind<T>,
  elsewhere?: PartsElsewhere<T>,
): () => void {
  const { conversations: conversationStore, storage } = stores;
  const loadsStore = kind.loads(stores);
  /** Parts being read now. */
  const reading = new Set<string>();

  function onLoads({ loads }: PartLoads) {
    const wanted = Object.keys(loads).filter((id) => loads[id] === 'loading' && !reading.has(id));
    if (wanted.length) void readParts(wanted);
  }

  async function readParts(ids: string[]) {
    for (const id of ids) reading.add(id);
    const here = new Map<string, T>();
    const failed = new Map<string, Exclude<PartLoad, 'loading'>>();
    const unreadable: UnreadableRecord[] = [];
    try {
      await db('readonly', (store) => {
        for (const id of ids)
          kind.read(store, id, (part, value) => {
            if (part === undefined) failed.set(id, 'missing');
            else if (typeof part !== 'string') here.set(id, part);
            else {
              failed.set(id, 'unreadable');
              unreadable.push({ key: kind.prefix + id, what: kind.what, reason: part, value });
            }
          });
        return promisifyRequest(store.transaction);
      });
    } catch {
      for (const id of ids) failed.set(id, 'failed');
    } finally {
      for (const id of ids) reading.delete(id);
    }
    // Not in this browser: the team server may have them (made on another device). Whatever goes wrong
    // there, the reading ends: a Retry waiting for a body then builds the request again.
    const missing = [...failed].flatMap(([id, why]) => (why === 'missing' ? [id] : []));
    const none = new Map<string, T>();
    const there = elsewhere && missing.length ? await elsewhere(missing).catch(() => none) : none;
    for (const id of there.keys()) failed.delete(id);
    if (stopped()) return;
    if (here.size || there.size) fill(here, there);
    storage.getState().noteUnreadable(unreadable);
    loadsStore.getState().settle(ids, failed);
  }

  /** Puts the parts found into their attempts; those `here` (and elsewhere's, unless kept here) are stored. */
  function fill(here: Map<string, T>, there: Map<string, T>) {
    const held = kind.keptHere ? here : new Map([...here, ...there]);
    const heldAttempts: Attempt[] = [];
    const filledIn: Conversation[] = [];
    for (const conversation of valuesOf(conversationStore.getState().conversations)) {
      const stored = partsOf(conversation, held);
      const asStored = kind.fill(conversation, stored);
      const next = kind.fill(asStored, partsOf(asStored, there));
      if (next === conversation) continue;
      filledIn.push(next);
      // The stored copy holds these parts too: not a change of this tab's to write. One kept here from
      // elsewhere is: the conversation's next record takes it into the database.
      const base = known.bases.get(next.id);
      if (base?.conversation === conversation) known.bases.set(next.id, { ...base, conversation: asStored });
      for (const attempt of attemptsOf(asStored)) if (stored.has(attempt.id)) heldAttempts.push(attempt);
    }
    conversationStore.getState().takeStored(filledIn);
    for (const attempt of heldAttempts) kind.stored(known, attempt);
  }

  /** The parts of `found` that `conversation`'s attempts still lack. */
  function partsOf(conversation: Conversation, found: ReadonlyMap<string, T>): Map<string, T> {
    return new Map(
      attemptsOf(conversation)
        .filter((a) => found.has(a.id) && kind.apart(a))
        .map((a) => [a.id, found.get(a.id)!]),
    );
  }

  const stop = loadsStore.subscribe(onLoads);
  onLoads(loadsStore.getState());
  return stop;
}

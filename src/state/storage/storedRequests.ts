import { get, type UseStore } from 'idb-keyval';
import type { Attempt, Conversation, SentRequest } from '../domain/types.ts';
import { readRequestRecord, requestPrefix, type UnreadableRecord } from '../formats/records.ts';
import { oneRecord, type PartKind, type PartsElsewhere } from './partReads.ts';
import { attemptsOf } from './storedConversation.ts';

/**
 * Request bodies kept apart: each attempt's body is a `request:<attemptId>` record, written once with the
 * first conversation record that holds the attempt (a body never changes), so that the conversation's
 * record, written every 400 ms while an answer streams, stays small. Whoever reads a conversation record
 * joins the bodies back in: at load all of them, another tab's new attempts in the transaction that reads
 * its record. A record `readConversationRecord` gives marks each body it keeps apart missing until then.
 * In team mode a body sent from another device is on the server (`serverParts.ts`): it is read from
 * there when it is asked for (`bodyParts`), and kept here from then on.
 */

/** What the database gave for a body kept apart: the body, or `unreadable` (its record is damaged). */
export type StoredBody = SentRequest['body'] | 'unreadable';

/** The bodies `conversation`'s attempts hold (none marked missing), by attempt id. */
export function bodiesIn(conversation: Conversation | undefined): Map<string, StoredBody> {
  const bodies = new Map<string, StoredBody>();
  for (const { id, request } of conversation ? attemptsOf(conversation) : [])
    if (!request.bodyMissing) bodies.set(id, request.body);
  return bodies;
}

/** Whether `attempt`'s body is still to be joined in: marked missing, not unreadable. */
function bodyApart(attempt: Attempt): boolean {
  return attempt.request.bodyMissing === 'missing';
}

/** The attempts whose body is still to be joined in, by id. */
function bodiesApart(conversation: Conversation): string[] {
  return attemptsOf(conversation)
    .filter(bodyApart)
    .map((a) => a.id);
}

/**
 * `conversation` with the bodies still to be joined in taken from `bodies` (the very objects: a body is
 * compared by reference first), or marked unreadable; those `bodies` lacks stay marked missing.
 */
export function withBodies(
  conversation: Conversation,
  bodies: ReadonlyMap<string, StoredBody>,
): Conversation {
  if (bodies.size === 0) return conversation;
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant') return m;
    let found = false;
    const attempts = m.attempts.map((a) => {
      const stored = bodyApart(a) ? bodies.get(a.id) : undefined;
      if (stored === undefined) return a;
      found = true;
      const { bodyMissing: _, ...request } = a.request;
      return {
        ...a,
        request:
          stored === 'unreadable'
            ? { ...a.request, bodyMissing: 'unreadable' as const }
            : { ...request, body: stored },
      };
    });
    if (!found) return m;
    changed = true;
    return { ...m, attempts };
  });
  return changed ? { ...conversation, messages } : conversation;
}

/** A `request:` record's body, or why it cannot be used. */
export function readBodyRecord(value: unknown): SentRequest['body'] | string {
  const read = readRequestRecord(value);
  return typeof read === 'string' ? read : read.body;
}

/** One attempt's body kept apart in IndexedDB, if it is there and readable. */
export async function storedBody(db: UseStore, attemptId: string): Promise<SentRequest['body'] | undefined> {
  const value = await get(requestPrefix + attemptId, db);
  const read = value === undefined ? undefined : readBodyRecord(value);
  return typeof read === 'object' ? read : undefined;
}

/** One `request:` record as read: into `bodies`, and listed in `unreadable` when it cannot be used. */
export function noteRequestRecord(
  key: string,
  value: unknown,
  bodies: Map<string, StoredBody>,
  unreadable: UnreadableRecord[],
): void {
  const read = readBodyRecord(value);
  const attemptId = key.slice(requestPrefix.length);
  if (typeof read !== 'string') bodies.set(attemptId, read);
  else {
    // The conversation loads; only this attempt's body is lost (Retry builds the request again).
    unreadable.push({ key, what: 'request', reason: read, value });
    bodies.set(attemptId, 'unreadable');
  }
}

/**
 * Reads the `request:` records of `attemptIds` in `store`'s transaction, then calls `done` with what they
 * held (none stored: left out) and those that cannot be read; at once when there is nothing to read.
 */
function readBodies(
  store: IDBObjectStore,
  attemptIds: readonly string[],
  done: (bodies: Map<string, StoredBody>, unreadable: UnreadableRecord[]) => void,
): void {
  const bodies = new Map<string, StoredBody>();
  const unreadable: UnreadableRecord[] = [];
  const requests = attemptIds.map((id) => ({
    key: requestPrefix + id,
    request: store.get(requestPrefix + id),
  }));
  const last = requests.at(-1)?.request;
  const finish = () => {
    for (const { key, request } of requests)
      if (request.result !== undefined) noteRequestRecord(key, request.result, bodies, unreadable);
    done(bodies, unreadable);
  };
  // Requests of one transaction complete in order: when the last is done, all are.
  if (last) last.onsuccess = finish;
  else finish();
}

/**
 * Joins in the bodies a conversation record read in `store`'s transaction keeps apart: from `local` (this
 * tab's copy, where the same attempt holds the same body) where it has them, else read from their records
 * in the same transaction; then calls `done` with the joined copy, the records read (by attempt id) and
 * those of them that cannot be read.
 */
export function joinBodies(
  store: IDBObjectStore,
  stored: Conversation,
  local: Conversation | undefined,
  done: (joined: Conversation, read: ReadonlyMap<string, StoredBody>, unreadable: UnreadableRecord[]) => void,
): void {
  const withOwn = withBodies(stored, bodiesIn(local));
  readBodies(store, bodiesApart(withOwn), (bodies, unreadable) =>
    done(withBodies(withOwn, bodies), bodies, unreadable),
  );
}

/** Where request bodies this browser lacks may be found (the team server), by attempt id; the ones found. */
export type BodiesElsewhere = PartsElsewhere<SentRequest['body']>;

/**
 * Bodies still missing when they are asked for (the inspector, a Retry that sends one again): in this
 * browser when another tab read them meanwhile, else on the team server. One found there is kept here.
 */
export const bodyParts: PartKind<SentRequest['body']> = {
  loads: (stores) => stores.bodies,
  prefix: requestPrefix,
  what: 'request',
  read: oneRecord(requestPrefix, readBodyRecord),
  apart: bodyApart,
  fill: withBodies,
  stored: (known, attempt) => known.storedBodies.add(attempt.id),
  keptHere: true,
};

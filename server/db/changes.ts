import * as v from 'valibot';
import type { Database, Transaction } from './database.ts';

/**
 * Every committed change to what a person's devices keep in sync is announced on one channel, with a small
 * payload that says what changed, never its content: whoever cares reads it, through the person's own
 * repositories. PostgreSQL delivers the announcement to every process listening, so a change written by
 * one server process reaches the devices connected to another.
 */

export const changesChannel = 'hopbase_changes';

type ChangeKind = 'conversation' | 'settings';

export interface Change {
  userId: string;
  kind: ChangeKind;
  /** The conversation's id; the person's id for settings. */
  id: string;
  /** The row's version after the change. */
  version: number;
  /** Its place in the order of all changes (`changesSince`). */
  change: number;
  deleted: boolean;
}

/** What a person's listeners hear: a change, or that changes may have been missed (read again). */
export type ChangeEvent = ({ type: 'change' } & Omit<Change, 'userId'>) | { type: 'resync' };

// Short keys: a payload stays far below NOTIFY's 8000 bytes whatever the id.
const payload = v.pipe(
  v.string(),
  v.parseJson(),
  v.object({
    u: v.string(),
    k: v.picklist(['conversation', 'settings']),
    i: v.string(),
    v: v.pipe(v.number(), v.safeInteger()),
    c: v.pipe(v.number(), v.safeInteger()),
    d: v.boolean(),
  }),
);

/** Sent when `tx` commits; never if it rolls back. */
export function announce(tx: Transaction, change: Change): Promise<void> {
  const { userId: u, kind: k, id: i, version, change: c, deleted: d } = change;
  return tx.notify(changesChannel, JSON.stringify({ u, k, i, v: version, c, d }));
}

type Listener = (event: ChangeEvent) => void;

/**
 * Delivers each person's changes to the listeners in this process that follow that person. One
 * subscription to the channel serves every listener; `start()` makes it, nothing before.
 */
export class ChangeFeed {
  private readonly listeners = new Map<string, Set<Listener>>();
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void = (line) => console.error(line),
  ) {}

  async start(): Promise<void> {
    this.stop ??= await this.db.listen(changesChannel, {
      message: (text) => this.deliver(text),
      reconnected: () => {
        for (const set of this.listeners.values()) this.each(set, { type: 'resync' });
      },
    });
  }

  /** Calls `listener` with each of the person's changes until the returned function is called. */
  subscribe(userId: string, listener: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) {
      set = new Set();
      this.listeners.set(userId, set);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(userId);
      current?.delete(listener);
      if (current?.size === 0) this.listeners.delete(userId);
    };
  }

  async close(): Promise<void> {
    const stop = this.stop;
    this.stop = undefined;
    this.listeners.clear();
    await stop?.();
  }

  private deliver(text: string): void {
    const read = v.safeParse(payload, text);
    if (!read.success) {
      this.log('changes: a notification that is not a change was ignored');
      return;
    }
    const { u, k, i, v: version, c, d } = read.output;
    this.each(this.listeners.get(u), { type: 'change', kind: k, id: i, version, change: c, deleted: d });
  }

  /** One listener's failure (a connection gone) is its own: the others still hear. */
  private each(set: Iterable<Listener> | undefined, event: ChangeEvent): void {
    for (const listener of set ?? []) {
      try {
        listener(event);
      } catch (error) {
        this.log(`changes: a listener failed (${(error as Error).message})`);
      }
    }
  }
}

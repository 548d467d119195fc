import type { RelayItem } from '../../src/core/index.ts';
import type { Ending } from './events.ts';
import { LiveAnswer } from './liveAnswer.ts';

/**
 * The answers this server runs and keeps (docs/relay.md), whichever process asks. Each answer is held in
 * this process's memory while it runs here, so the page that started it and any page that resumes it
 * here read it at once. Single-person mode has nothing else: one process, the answers kept in memory
 * until forgotten. Team mode adds the database (`SharedLog`): every event is written there as it comes,
 * so any process serves a resume, and a stop reaches the process that runs the answer.
 */

/** Whose answer: the person (team mode's user id, or `LOCAL_OWNER`) and the page's attempt id. */
export interface AnswerKey {
  owner: string;
  attemptId: string;
}

/** The one person of single-person mode. */
export const LOCAL_OWNER = 'local';

export interface RelaySettings {
  /** The most of the gateway's body one answer may have: past it, `too-large`. */
  maxAnswerBytes: number;
  /** The most of answers' bodies this process holds at once (ended answers are forgotten first). */
  memoryBytes: number;
  /** How long an answer is kept after it ends when no page says it has stored it. */
  keepMs: number;
  /** How long an answer a page has stored (`DELETE`) is still kept, for other pages still reading it. */
  graceMs: number;
  /** Team mode: how often each process says it is alive, and the silence after which its answers are `lost`. */
  heartbeatMs: number;
  staleMs: number;
}

export const DEFAULT_RELAY_SETTINGS: RelaySettings = {
  maxAnswerBytes: 16 * 1024 * 1024,
  memoryBytes: 512 * 1024 * 1024,
  keepMs: 60 * 60 * 1000,
  graceMs: 60 * 1000,
  heartbeatMs: 5_000,
  staleMs: 20_000,
};

/** A reader's events; the returned function stops following. */
export type Follow = (event: RelayItem) => void;

/** What the database adds in team mode (`dbLog.ts`): the answers of every process, shared. */
export interface SharedLog {
  /** Listens, and starts saying this process is alive. */
  start(): Promise<void>;
  /** Takes the attempt id for its owner; false: they have an answer under it already. */
  claim(key: AnswerKey, conversationId: string): Promise<boolean>;
  /** The answer was not relayed after all (the gateway refused it): nothing is kept. */
  unclaim(key: AnswerKey): Promise<void>;
  /** An event of an answer this process runs, written with the next batch. */
  write(key: AnswerKey, event: RelayItem): void;
  /** Resolves once every event written so far is in the database. */
  flushed(): Promise<void>;
  /** A reader of an answer this process does not hold; undefined: no such answer of this owner. */
  follow(key: AnswerKey, after: number, on: Follow): Promise<(() => void) | undefined>;
  /** Stops an answer another process runs (or tells how it ended); undefined: no such answer. */
  stop(key: AnswerKey): Promise<Ending | undefined>;
  /** A page has stored the answer: forgotten after the grace. False: no such answer. */
  forget(key: AnswerKey, graceMs: number): Promise<boolean>;
  /** Where another process's stop for an answer of this one goes. */
  onStop(handler: (key: AnswerKey) => void): void;
  close(): Promise<void>;
}

type Held =
  /** Claimed: the gateway has not answered yet; no reader may follow it. */
  | { state: 'claimed' }
  | {
      state: 'running' | 'ended';
      answer: LiveAnswer;
      /** Ends the answer with this outcome: its gateway call is aborted. */
      stop(ending: Ending): void;
      acknowledged: boolean;
      timer?: NodeJS.Timeout;
    };

type Kept = Extract<Held, { state: 'running' | 'ended' }>;

/** The runner's side of one answer: its pieces as they come, then its end. */
export interface Run {
  readonly answer: LiveAnswer;
  /**
   * The next piece of the body (`bytes` of the gateway's); an ending when a size limit is passed: the
   * runner then stops the gateway's call and ends the answer with it.
   */
  piece(text: string, t: number, bytes: number): Ending | undefined;
  /** The answer's end; only the first counts. */
  end(ending: Ending): void;
}

const keyOf = ({ owner, attemptId }: AnswerKey) => `${owner}\0${attemptId}`;

export class Relay {
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;
  private closed = false;

  constructor(
    readonly settings: RelaySettings,
    private readonly shared?: SharedLog,
  ) {
    shared?.onStop((key) => this.stopHere(key, { outcome: 'stopped' }));
  }

  async start(): Promise<void> {
    await this.shared?.start();
  }

  /** Takes the attempt id for a new answer; false: its owner has one under that id (409). */
  async claim(key: AnswerKey, conversationId: string): Promise<boolean> {
    const k = keyOf(key);
    if (this.held.has(k) || this.closed) return false;
    // Taken here at once: two starts in this process cannot both pass, whatever the database says.
    this.held.set(k, { state: 'claimed' });
    let claimed = false;
    try {
      claimed = !this.shared || (await this.shared.claim(key, conversationId));
      return claimed;
    } finally {
      // Refused, or the database failed (the request then fails with 500): the id is not held here.
      if (!claimed) this.held.delete(k);
    }
  }

  /** The gateway did not answer with a stream: nothing is kept, and the id is free again. */
  async unclaim(key: AnswerKey): Promise<void> {
    this.held.delete(keyOf(key));
    await this.shared?.unclaim(key);
  }

  /** The answer runs: `stop` aborts its gateway call and ends it. */
  begin(key: AnswerKey, stop: (ending: Ending) => void): Run {
    const k = keyOf(key);
    const answer = new LiveAnswer();
    const held: Kept = { state: 'running', answer, stop, acknowledged: false };
    this.held.set(k, held);
    const push = (event: RelayItem, bytes: number) => {
      answer.push(event, bytes);
      this.heldBytes += bytes;
      this.shared?.write(key, event);
    };
    return {
      answer,
      piece: (text, t, bytes) => {
        if (held.state !== 'running') return undefined;
        if (answer.bytes + bytes > this.settings.maxAnswerBytes)
          return {
            outcome: 'too-large',
            message: `The answer passed this server's limit of ${this.settings.maxAnswerBytes} bytes (HOPBASE_RELAY_MAX_ANSWER_BYTES).`,
          };
        if (!this.roomFor(bytes))
          return {
            outcome: 'too-large',
            message: `The server holds as much of answers as it may (HOPBASE_RELAY_MEMORY_BYTES is ${this.settings.memoryBytes}).`,
          };
        push({ id: answer.lastId + 1, kind: 'piece', t, text }, bytes);
        return undefined;
      },
      end: (ending) => {
        if (held.state !== 'running') return;
        held.state = 'ended';
        push({ id: answer.lastId + 1, kind: 'end', ...ending }, 0);
        this.afterEnd(k, held);
      },
    };
  }

  /** Follows an answer from after event `after`; undefined: no such answer of this owner (404). */
  async follow(key: AnswerKey, after: number, on: Follow): Promise<(() => void) | undefined> {
    const held = this.held.get(keyOf(key));
    if (held && held.state !== 'claimed') return held.answer.follow(after, on);
    if (held) return undefined;
    return this.shared?.follow(key, after, on);
  }

  /** Stops the answer wherever it runs; its outcome, or undefined: no such answer (404). */
  async stop(key: AnswerKey): Promise<Ending | undefined> {
    const held = this.held.get(keyOf(key));
    if (held?.state === 'claimed') return undefined;
    if (held) return this.stopHere(key, { outcome: 'stopped' });
    return this.shared?.stop(key);
  }

  /** A page has stored the answer: it is forgotten after the grace (once it ended). False: none (404). */
  async forget(key: AnswerKey): Promise<boolean> {
    const k = keyOf(key);
    const held = this.held.get(k);
    if (held?.state === 'claimed') return false;
    if (held && !held.acknowledged) {
      held.acknowledged = true;
      if (held.state === 'ended') this.keep(k, held, this.settings.graceMs);
    }
    const shared = this.shared ? await this.shared.forget(key, this.settings.graceMs) : false;
    return shared || held !== undefined;
  }

  /** Answers held in this process: running, and ended ones still kept in memory. */
  get size(): number {
    return this.held.size;
  }

  /** Ends every answer running here as `lost` (readers elsewhere learn it), then closes the database side. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [k, held] of this.held) {
      if (held.state === 'running') held.stop({ outcome: 'lost', message: 'The server was shut down.' });
      if (held.state !== 'claimed') clearTimeout(held.timer);
      this.held.delete(k);
    }
    await this.shared?.close();
  }

  private stopHere(key: AnswerKey, ending: Ending): Ending | undefined {
    const held = this.held.get(keyOf(key));
    if (!held || held.state === 'claimed') return undefined;
    if (held.state === 'running') held.stop(ending);
    return held.answer.ending ?? ending;
  }

  /**
   * An ended answer: kept in memory for `keepMs` (the grace if a page has stored it already), or, with the
   * database, only until its last events are written there: from then on the database serves it.
   */
  private afterEnd(k: string, held: Kept): void {
    if (this.shared)
      void this.shared.flushed().then(() => {
        if (this.held.get(k) === held) this.drop(k, held);
      });
    else this.keep(k, held, held.acknowledged ? this.settings.graceMs : this.settings.keepMs);
  }

  private keep(k: string, held: Kept, ms: number): void {
    clearTimeout(held.timer);
    held.timer = setTimeout(() => {
      if (this.held.get(k) === held) this.drop(k, held);
    }, ms);
    held.timer.unref();
  }

  private drop(k: string, held: Kept): void {
    clearTimeout(held.timer);
    this.held.delete(k);
    this.heldBytes -= held.answer.bytes;
  }

  /** Whether `bytes` more fit in memory, forgetting the oldest ended answers to make room if need be. */
  private roomFor(bytes: number): boolean {
    if (this.heldBytes + bytes <= this.settings.memoryBytes) return true;
    for (const [k, held] of this.held) {
      if (held.state !== 'ended') continue;
      this.drop(k, held);
      if (this.heldBytes + bytes <= this.settings.memoryBytes) return true;
    }
    return false;
  }
}

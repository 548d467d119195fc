import type { RelayItem } from '../../src/core/index.ts';
import type { Ending } from './events.ts';

type Listener = (event: RelayItem) => void;

/**
 * One answer's events held in this process, and the readers following it: a reader gets every event after
 * the one it names, in order, once, then each new one as it comes, the `end` last. Events are only ever
 * added at the end, numbered in turn, so "after n" is a slice.
 */
export class LiveAnswer {
  readonly events: RelayItem[] = [];
  /** What the events weigh (`weight`), for the size limits. */
  bytes = 0;
  private readonly listeners = new Set<Listener>();

  get ending(): Ending | undefined {
    const last = this.events.at(-1);
    if (last?.kind !== 'end') return undefined;
    return last.message === undefined
      ? { outcome: last.outcome }
      : { outcome: last.outcome, message: last.message };
  }

  get lastId(): number {
    return this.events.length;
  }

  /** Adds the next event (its id is the next number) and hands it to every reader. */
  push(event: RelayItem, bytes: number): void {
    if (this.ending) return;
    this.events.push(event);
    this.bytes += bytes;
    for (const listener of [...this.listeners]) listener(event);
    if (event.kind === 'end') this.listeners.clear();
  }

  /**
   * Events after `after` to `on` at once, then the live ones; the returned function stops it. The `end`
   * is handed over whatever its id, so that a reader that has it already (or names an id beyond it)
   * learns the answer is over.
   */
  follow(after: number, on: Listener): () => void {
    for (let i = Math.max(0, after); i < this.events.length; i++) on(this.events[i] as RelayItem);
    const last = this.events.at(-1);
    if (last?.kind === 'end') {
      if (after >= this.events.length) on(last);
      return () => {};
    }
    const pass: Listener = (event) => {
      if (event.id > after || event.kind === 'end') on(event);
    };
    this.listeners.add(pass);
    return () => this.listeners.delete(pass);
  }

  get readers(): number {
    return this.listeners.size;
  }
}

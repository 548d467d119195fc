import type { Conversation } from '../domain/types.ts';
import { isStructural, WriteScheduler } from '../storage/writeScheduler.ts';
import { type ConversationStore, touchedIds } from '../stores/conversationStore.ts';
import type { Settings, SettingsStore } from '../stores/settingsStore.ts';
import type { TeamStore } from '../stores/teamStore.ts';
import {
  type ChangeStream,
  type OpenChangeStream,
  openChangeStream,
  type RemoteChange,
} from './changeStream.ts';
import {
  changedFields,
  readServerRecord,
  sameAsServer,
  serverRecordOf,
  settingsDocument,
  settingsWithServer,
  takeServerCopy,
} from './serverCopies.ts';
import type { ServerParts } from './serverParts.ts';
import type { SyncMemory, SyncMemoryStore } from './syncMemory.ts';
import {
  type Failure,
  RECORDS_PER_REQUEST,
  type ServerConversation,
  type ServerSettings,
  type TeamApi,
} from './teamApi.ts';

/**
 * Team mode: the server is the truth, this browser's IndexedDB its cache. A change made here goes to the
 * server at once (a streaming answer at most every `delayMs`), written from the version it was made from;
 * if another device wrote first, the two are joined with the same per-field merge as two tabs and written
 * again. Changes made elsewhere arrive on the person's change stream, which names what changed: the
 * conversations are then read, in pages, and taken in. Offline, changes wait here (across reloads,
 * `syncMemory.ts`) and go when the server is back; a session that ended stops everything until the person
 * signs in again, losing nothing.
 */

export interface ServerSyncOptions {
  conversations: ConversationStore;
  settings: SettingsStore;
  team: TeamStore;
  api: TeamApi;
  memory: SyncMemoryStore;
  openStream?: OpenChangeStream;
  /** How long the changes of a streaming answer gather before they go to the server. */
  delayMs?: number;
  /** The first wait before a request that failed (the server unreachable) is tried again; it doubles. */
  retryMs?: number;
  /** Sends what a conversation's record leaves out (files, recordings, request bodies); none: records only. */
  parts?: ServerParts | null;
}

/** What a step of writing could not do: try again later, or stop until the person signs in again. */
type Halt = 'later' | 'signed-out';

const MAX_RETRY_MS = 60_000;
/** The rows a new device's sidebar shows before its first screen's other conversations are read. */
const SCREENFUL = 25;
/** Writes of one conversation in one step, each after joining a copy another device wrote meanwhile. */
const MAX_CONFLICTS = 5;

export class ServerSync {
  private readonly options: Required<ServerSyncOptions>;
  /** The server's version of each conversation, as last seen here. */
  private versions: Record<string, number> = Object.create(null);
  /** The server's copy of each conversation as this page last saw it (null: deleted): what edits here are joined against. */
  private readonly copies = new Map<string, Conversation | null>();
  private readonly pending = new Set<string>();
  private readonly refused = new Map<string, string>();
  /** Conversations changed elsewhere, to be read from the server. */
  private readonly wanted = new Set<string>();
  /** The last change heard, and the last one whose content is here (what a reload goes on from). */
  private heard = 0;
  private cursor = 0;
  private settingsVersion = 0;
  private settingsBase: Record<string, unknown> | null = null;
  private settingsPending = false;
  private settingsWanted = true;
  /** Set while this sync puts the server's copies into the stores: those are not changes to send back. */
  private applying = false;
  private stream: ChangeStream | null = null;
  private failures = 0;
  private readonly scheduler: WriteScheduler;
  private readonly stops: (() => void)[] = [];

  constructor(options: ServerSyncOptions) {
    this.options = { openStream: openChangeStream, delayMs: 1_000, retryMs: 2_000, parts: null, ...options };
    this.scheduler = new WriteScheduler(() => this.step(), this.options.delayMs);
  }

  /** Reads what the sync remembers, then sends what is pending and follows the change stream. */
  async start(): Promise<void> {
    // The server's first page is asked beside the read of what the sync remembers: a device that has never
    // synced needs it (its first screen), and waiting for the read first cost a new device a round trip.
    const { api, conversations } = this.options;
    const newest = api.newest(RECORDS_PER_REQUEST);
    // Nothing here at all (a new device): the first screen's records are asked as soon as the page names
    // them, not after the first render, which a new device's start runs meanwhile.
    const firstRecords =
      Object.keys(conversations.getState().conversations).length === 0
        ? newest.then((page) =>
            page.ok && page.ids.length > 0 ? api.conversations(page.ids.slice(0, SCREENFUL)) : null,
          )
        : null;
    const memory = await this.options.memory.read();
    // Its own copy, without a prototype: an id such as `__proto__` is just an id.
    this.versions = Object.assign(Object.create(null), memory.versions);
    this.cursor = this.heard = memory.cursor;
    this.settingsVersion = memory.settingsVersion;
    this.settingsPending = memory.settingsPending;
    for (const id of memory.pending) this.pending.add(id);
    // Anything here the server has never confirmed goes (it may be there already: a write that conflicts joins them).
    for (const id of Object.keys(this.options.conversations.getState().conversations))
      if (!(id in this.versions)) this.pending.add(id);
    this.follow();
    // A device that has never synced shows what was last worked on first; the stream then brings the rest.
    if (this.cursor === 0) await this.readFirstScreen(await newest, firstRecords);
    this.openStream();
    this.scheduler.runSoon();
  }

  private async readFirstScreen(
    newest: Awaited<ReturnType<TeamApi['newest']>>,
    asked: Promise<Awaited<ReturnType<TeamApi['conversations']>> | null> | null,
  ): Promise<void> {
    const { api } = this.options;
    if (!newest.ok || newest.ids.length === 0) return;
    // What a screen shows first is read on its own: a hundred records are over a megabyte to wait for.
    const first = (await asked) ?? (await api.conversations(newest.ids.slice(0, SCREENFUL)));
    if (first.ok) this.takeConversations(first.items);
    for (const id of first.ok ? newest.ids.slice(SCREENFUL) : newest.ids) this.wanted.add(id);
    await this.scheduler.run();
  }

  /** Sends what is pending now; resolves with how many changes are still not on the server. */
  async flush(): Promise<number> {
    await this.scheduler.run();
    return this.pending.size + (this.settingsPending ? 1 : 0);
  }

  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    this.stream?.close();
    this.stream = null;
    this.scheduler.stop();
    await this.remember();
  }

  private follow(): void {
    const { conversations, settings } = this.options;
    this.stops.push(
      conversations.subscribe((state, previous) => {
        if (this.applying || state.conversations === previous.conversations) return;
        const next = state.conversations;
        const before = previous.conversations;
        const ids = touchedIds(state, previous);
        for (const id of ids) {
          if (next[id] === before[id]) continue;
          // One this page had not read yet arriving from its own cache (a long history reads its first
          // screen first) is not a change: pending only if the server never confirmed it, as at start.
          if (next[id] !== undefined && before[id] === undefined && id in this.versions) continue;
          this.pending.add(id);
        }
        if (isStructural(next, before, ids)) this.scheduler.runSoon();
        else this.scheduler.later();
      }),
      settings.subscribe((state, previous) => {
        if (this.applying || state.settings === previous.settings) return;
        this.settingsPending = true;
        this.scheduler.runSoon();
      }),
    );
  }

  private openStream(): void {
    this.stream?.close();
    this.stream = this.options.openStream(this.heard, (event) => {
      switch (event.kind) {
        case 'change':
          this.heardChanges([event.change]);
          break;
        case 'changes':
          this.heardChanges(event.changes);
          break;
        case 'ready':
          this.failures = 0;
          this.options.team.getState().connected('live');
          this.settingsWanted = true;
          this.scheduler.runSoon();
          break;
        case 'interrupted':
          this.options.team.getState().connected('offline');
          break;
        case 'missed':
          this.openStream();
          break;
        case 'closed':
          void this.streamRefused();
          break;
      }
    });
  }

  /** The server refused the stream: the session ended, or it is not there; either way not for long. */
  private async streamRefused(): Promise<void> {
    this.stream?.close();
    this.stream = null;
    const account = await this.options.api.account();
    if (account.mode === 'team' && account.person === null) return this.halt('signed-out');
    this.options.team.getState().connected('offline');
    setTimeout(() => {
      if (!this.scheduler.stopped) this.openStream();
    }, this.nextRetryMs());
  }

  private heardChanges(changes: readonly RemoteChange[]): void {
    const deletions: ServerConversation[] = [];
    for (const change of changes) {
      this.heard = Math.max(this.heard, change.position);
      if (change.kind === 'settings') {
        if (change.version > this.settingsVersion) this.settingsWanted = true;
      } else if ((this.versions[change.id] ?? 0) < change.version) {
        // A deletion says all there is to know; anything else is read.
        if (change.deleted) deletions.push({ ...change, deleted: true, change: change.position });
        else this.wanted.add(change.id);
      }
    }
    if (deletions.length > 0) this.takeConversations(deletions);
    this.scheduler.runSoon();
  }

  private async step(): Promise<void> {
    const halt =
      (await this.readWanted()) ??
      (await this.readSettings()) ??
      (await this.writeConversations()) ??
      (await this.writeSettings());
    if (halt) this.halt(halt);
    else {
      this.failures = 0;
      if (this.wanted.size === 0) this.cursor = this.heard;
    }
    this.options.team.getState().pendingChanged(
      this.pending.size + (this.settingsPending ? 1 : 0),
      [...this.refused].map(([id, reason]) => ({ id, reason })),
    );
    await this.remember();
  }

  private halt(halt: Halt): void {
    if (halt === 'signed-out') {
      this.options.team.getState().sessionEnded();
      this.stream?.close();
      this.stream = null;
      return;
    }
    this.options.team.getState().connected('offline');
    this.scheduler.runIn(this.nextRetryMs());
  }

  private nextRetryMs(): number {
    this.failures++;
    return Math.min(MAX_RETRY_MS, this.options.retryMs * 2 ** (this.failures - 1));
  }

  private async readWanted(): Promise<Halt | undefined> {
    while (this.wanted.size > 0) {
      // The newest changes first: a device catching up shows what was last worked on first.
      const ids = [...this.wanted].slice(-RECORDS_PER_REQUEST);
      const read = await this.options.api.conversations(ids);
      if (!read.ok) return haltFor(read);
      for (const id of ids) this.wanted.delete(id);
      this.takeConversations(read.items);
    }
    return undefined;
  }

  /** Takes the server's copies in: shown as they are, or joined with what changed here (then written back). */
  private takeConversations(items: readonly ServerConversation[]): void {
    const upserts: Conversation[] = [];
    const removals: string[] = [];
    const here = this.options.conversations.getState().conversations;
    for (const item of items) {
      const { id } = item;
      if ((this.versions[id] ?? 0) > item.version) continue;
      this.versions[id] = item.version;
      const local = here[id];
      if (item.deleted) {
        // A deletion wins, as between tabs.
        this.copies.set(id, null);
        this.pending.delete(id);
        if (local) removals.push(id);
        continue;
      }
      const remote = readServerRecord(id, item.record);
      if ('unreadable' in remote) {
        this.refused.set(id, remote.unreadable);
        continue;
      }
      const changedHere = this.pending.has(id) && local !== undefined;
      const shown = takeServerCopy(remote, local, changedHere, this.copies.get(id) ?? null);
      this.copies.set(id, remote);
      if (shown !== local) upserts.push(shown);
      if (sameAsServer(shown, serverRecordOf(remote))) this.pending.delete(id);
    }
    // All at once: the stores (and everyone following them) change once per page, not once per conversation.
    if (upserts.length || removals.length) this.apply(upserts, removals);
  }

  private async writeConversations(): Promise<Halt | undefined> {
    for (const id of [...this.pending]) {
      if (this.refused.has(id)) continue;
      const halt = await this.writeConversation(id);
      if (halt) return halt;
    }
    return undefined;
  }

  private async writeConversation(id: string): Promise<Halt | undefined> {
    const { api, conversations } = this.options;
    for (let tries = 0; tries < MAX_CONFLICTS; tries++) {
      const local = conversations.getState().conversations[id];
      if (!local) {
        const deleted = await api.deleteConversation(id);
        if (!deleted.ok) return haltFor(deleted);
        this.copies.set(id, null);
        this.pending.delete(id);
        return undefined;
      }
      const copy = this.copies.get(id);
      if (copy && sameAsServer(local, serverRecordOf(copy))) {
        this.pending.delete(id);
        return this.sendParts(local);
      }
      const written = await api.putConversation(id, this.versions[id] ?? 0, serverRecordOf(local));
      if (written.ok) {
        this.versions[id] = written.version;
        this.copies.set(id, local);
        // Changed again while it was being written: the next step sends that.
        if (conversations.getState().conversations[id] === local) this.pending.delete(id);
        return this.sendParts(local);
      }
      if (written.kind !== 'conflict') {
        if (written.kind !== 'refused') return haltFor(written);
        this.refused.set(id, written.reason);
        return undefined;
      }
      // Written elsewhere first: join that copy in and write again (none stored: write it anew).
      if (written.current) this.takeConversations([written.current]);
      else this.versions[id] = 0;
      if (!this.pending.has(id)) return undefined;
    }
    // Another device keeps writing it: the next step tries again.
    return 'later';
  }

  /** The files, recordings and request bodies the record leaves out, once it is written (failed: again later). */
  private async sendParts(conversation: Conversation): Promise<Halt | undefined> {
    const failed = await this.options.parts?.send(conversation);
    if (!failed) return undefined;
    this.pending.add(conversation.id);
    return haltFor(failed);
  }

  private async readSettings(): Promise<Halt | undefined> {
    if (!this.settingsWanted) return undefined;
    const read = await this.options.api.settings();
    if (!read.ok) return haltFor(read);
    this.settingsWanted = false;
    this.takeSettings(read.settings);
    return undefined;
  }

  private takeSettings(stored: ServerSettings): void {
    if (stored.version <= this.settingsVersion && this.settingsBase !== null) return;
    const { settings } = this.options;
    const local = settings.getState().settings;
    // What changed here since the server's last copy stays, on top of the server's.
    const own = this.settingsPending ? changedFields(settingsDocument(local), this.settingsBase) : {};
    const next = settingsWithServer(local, { ...stored.document, ...own });
    this.settingsVersion = stored.version;
    this.settingsBase = stored.document;
    if (next !== local) this.applySettings(next);
    if (Object.keys(own).length === 0) this.settingsPending = false;
  }

  private async writeSettings(): Promise<Halt | undefined> {
    for (let tries = 0; this.settingsPending && tries < MAX_CONFLICTS; tries++) {
      const document = settingsDocument(this.options.settings.getState().settings);
      if (this.settingsBase && Object.keys(changedFields(document, this.settingsBase)).length === 0) {
        this.settingsPending = false;
        return undefined;
      }
      const written = await this.options.api.putSettings(this.settingsVersion, document);
      if (written.ok) {
        this.settingsVersion = written.version;
        this.settingsBase = document;
        // Changed again while it was being written: the next step sends that.
        const now = settingsDocument(this.options.settings.getState().settings);
        this.settingsPending = Object.keys(changedFields(now, document)).length > 0;
        return undefined;
      }
      if (written.kind === 'refused') {
        // Kept in this browser all the same; the server's words go to the console, not to a loop of retries.
        console.warn('The server would not keep the settings:', written.reason);
        this.settingsPending = false;
        return undefined;
      }
      if (written.kind !== 'conflict') return haltFor(written);
      if (written.current) this.takeSettings(written.current);
    }
    return undefined;
  }

  private apply(upserts: Conversation[], removals: string[]): void {
    this.applying = true;
    try {
      // Put in the list by date, as a reload of the cache lists them: pages come newest first (a new
      // device's first screen, then what the stream names, newest pages first).
      this.options.conversations.getState().takeStored(upserts, removals, 'byDate');
    } finally {
      this.applying = false;
    }
  }

  private applySettings(next: Settings): void {
    this.applying = true;
    try {
      this.options.settings.getState().takeStored(next);
    } finally {
      this.applying = false;
    }
  }

  private remember(): Promise<void> {
    const memory: SyncMemory = {
      cursor: this.cursor,
      versions: this.versions,
      pending: [...this.pending],
      settingsVersion: this.settingsVersion,
      settingsPending: this.settingsPending,
    };
    return this.options.memory.write(memory).catch((error: unknown) => {
      console.warn('Could not keep the sync’s place', error);
    });
  }
}

function haltFor(failure: Failure): Halt | undefined {
  if (failure.kind === 'signed-out') return 'signed-out';
  if (failure.kind === 'unreachable') return 'later';
  return undefined;
}

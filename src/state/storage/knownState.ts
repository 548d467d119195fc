import type { Attempt, AttemptTrace, Conversation } from '../domain/types.ts';
import type { AppStores } from '../stores/appStores.ts';
import type { Settings } from '../stores/settingsStore.ts';
import type { LoadedState } from './load.ts';
import { attemptsOf } from './storedConversation.ts';
import { storableSettings } from './storedSettings.ts';

/** What the database holds for one conversation: its revision (null: unknown) and the content it came from (null: deleted). */
export interface Base {
  revision: number | null;
  conversation: Conversation | null;
}

/** A recording as last sent to the database, with when (for the throttle). */
export interface SentTrace {
  trace: AttemptTrace;
  at: number;
  /** When written in parts (`putRecordingPart`): how many, so that the next write adds only what came since. */
  parts?: number;
  /** When those parts hold only the first of `trace` (a part is kept small): how far, the rest to follow. */
  upTo?: RecordingPosition;
}

/** A place in a recording: its first `items` items and `raw` characters of its stream. */
export interface RecordingPosition {
  items: number;
  raw: number;
}

/**
 * What this tab knows the database holds, changed only when a write commits or a record is read: a write
 * sends what differs from it, and the unload journal keeps what differs from it.
 */
export class KnownState {
  /** Per conversation. */
  readonly bases: Map<string, Base>;
  /** The settings as stored (defaults filled in), in stored form. */
  settings: Settings;
  /** The active conversation as stored. */
  activeId: string | null;
  /** The recent-conversations record as stored (null: none known). */
  recent: string[] | null;
  /** Per attempt, the recording last sent and the one last committed. */
  readonly sentTraces = new Map<string, SentTrace>();
  readonly committedTraces = new Map<string, AttemptTrace>();
  /**
   * The attempts whose request body has a record of its own in the database: never written again. A body
   * only in a conversation record from before is not among them: it gets its record when that is next written.
   */
  readonly storedBodies: Set<string>;
  /** Recordings restored from the unload journal, not yet in the database. */
  private readonly unsavedTraces: ReadonlySet<string>;

  /** From what `loadState` found; without it, the stores' content is taken as what is stored. */
  constructor(stores: AppStores, loaded: LoadedState | undefined) {
    const { conversations, activeId } = stores.conversations.getState();
    this.bases = new Map(loaded?.bases);
    if (!loaded)
      for (const [id, conversation] of Object.entries(conversations))
        this.bases.set(id, { revision: null, conversation });
    this.settings = loaded?.settingsBase ?? storableSettings(stores.settings.getState().settings);
    this.activeId = loaded ? loaded.activeId : activeId;
    this.recent = loaded?.recent ?? null;
    this.unsavedTraces = loaded?.unsavedTraces ?? new Set();
    this.storedBodies = new Set(loaded?.storedBodies);
    for (const conversation of Object.values(conversations))
      for (const attempt of attemptsOf(conversation))
        if (!this.unsavedTraces.has(attempt.id)) this.traceStored(attempt, 0);
  }

  /** The conversations that differ from their stored copy (run at every write: no copy of the whole record). */
  changed(conversations: Record<string, Conversation>): Conversation[] {
    const out: Conversation[] = [];
    const ids = Object.keys(conversations);
    for (let i = 0; i < ids.length; i++) {
      const conversation = conversations[ids[i]!]!;
      if (this.bases.get(conversation.id)?.conversation !== conversation) out.push(conversation);
    }
    return out;
  }

  /** Conversations stored but deleted here, not yet written as deleted. */
  pendingDeletions(conversations: Record<string, Conversation>): [string, Base][] {
    const out: [string, Base][] = [];
    for (const [id, base] of this.bases)
      if (base.conversation !== null && !conversations[id]) out.push([id, base]);
    return out;
  }

  /** A recording the database holds as it is in memory: not this tab's to write again. */
  traceStored(attempt: Attempt, at: number): void {
    this.sentTraces.set(attempt.id, { trace: attempt.trace, at });
    this.committedTraces.set(attempt.id, attempt.trace);
  }

  /** Whether anything in `conversations` is not yet committed. */
  isDirty(conversations: Record<string, Conversation>): boolean {
    return (
      this.changed(conversations).length > 0 ||
      this.pendingDeletions(conversations).length > 0 ||
      [...this.unsavedTraces].some((id) => !this.committedTraces.has(id))
    );
  }
}

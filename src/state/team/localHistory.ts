import { promisifyRequest, type UseStore } from 'idb-keyval';
import type { Conversation } from '../domain/types.ts';
import type { StoredTrace } from '../formats/records.ts';
import { openDatabase, putRecording } from '../storage/database.ts';
import { readStoredConversations } from '../storage/load.ts';
import { readRecording } from '../storage/recordingReads.ts';
import { attemptsOf } from '../storage/storedConversation.ts';
import type { ConversationStore } from '../stores/conversationStore.ts';
import type { TeamStore } from '../stores/teamStore.ts';

/**
 * The history this browser kept before its person signed in to team mode (single-person mode's database),
 * offered once for their account. Added, each conversation not already in the account goes to the server
 * like any new one (written under its own id: adding twice, or from two browsers, doubles nothing), its
 * recordings copied beside it. The old database is left as it was: nothing is lost either way.
 */

export interface LocalHistoryOptions {
  team: TeamStore;
  conversations: ConversationStore;
  /** The signed-in person's email: what this browser remembers of the offer is theirs. */
  email: string;
  /** The person's own database, where the recordings are copied. */
  target: () => UseStore;
  /** Single-person mode's database (`openDatabase()`). */
  source?: () => UseStore;
  /** Where the answer to the offer is remembered. */
  remembered?: Pick<globalThis.Storage, 'getItem' | 'setItem'>;
}

type Answer = 'added' | 'dismissed';

export class LocalHistory {
  private found: Conversation[] = [];

  constructor(private readonly options: LocalHistoryOptions) {}

  private get key(): string {
    return `hopbase-local-history:${this.options.email}`;
  }

  private get memory(): Pick<globalThis.Storage, 'getItem' | 'setItem'> | undefined {
    return this.options.remembered ?? globalThis.localStorage;
  }

  private source(): UseStore {
    return (this.options.source ?? (() => openDatabase()))();
  }

  /** Offers the conversations the old database holds that the account lacks, unless answered before. */
  async offer(): Promise<void> {
    const answered = this.memory?.getItem(this.key);
    if (answered === 'added' || answered === 'dismissed') return;
    const here = this.options.conversations.getState().conversations;
    this.found = (await readStoredConversations(this.source())).filter((c) => !here[c.id]);
    if (this.found.length > 0)
      this.options.team.getState().localHistoryIs({ state: 'offered', count: this.found.length });
  }

  /** Adds them: their readable recordings copied (joined, as one record each), then the conversations (the sync sends them). */
  async add(): Promise<void> {
    const { team, conversations, target } = this.options;
    const count = this.found.length;
    team.getState().localHistoryIs({ state: 'adding', count });
    const recordings = new Map<string, StoredTrace>();
    await this.source()('readonly', (store) => {
      for (const { id } of this.found.flatMap(attemptsOf))
        readRecording(store, id, (trace) => {
          if (typeof trace === 'object') recordings.set(id, trace);
        });
      return promisifyRequest(store.transaction);
    });
    if (recordings.size)
      await target()('readwrite', (store) => {
        for (const [id, trace] of recordings) putRecording(store, id, trace);
        return promisifyRequest(store.transaction);
      });
    const here = conversations.getState().conversations;
    conversations.getState().takeStored(this.found.filter((c) => !here[c.id]));
    this.remember('added');
    team.getState().localHistoryIs({ state: 'added', count });
  }

  dismiss(): void {
    this.remember('dismissed');
    this.options.team.getState().localHistoryIs({ state: 'none' });
  }

  private remember(answer: Answer): void {
    this.memory?.setItem(this.key, answer);
  }
}

import { recordingKeptApart } from '../domain/recordings.ts';
import type { Attempt, Conversation, SentRequest } from '../domain/types.ts';
import type { StoredTrace } from '../formats/records.ts';
import type { Failure, TeamApi } from './teamApi.ts';

/** Where the parts a conversation's record leaves out are read in this browser. */
export interface PartsHere {
  /** An attached file's bytes (undefined: not here). */
  attachment(id: string): Promise<Blob | undefined>;
  /** An attempt's recording kept apart in IndexedDB (undefined: not there). */
  recordingKeptApart(attemptId: string): Promise<StoredTrace | undefined>;
  /** An attempt's request body kept apart in IndexedDB, not read by a load (undefined: not there, or damaged). */
  bodyKeptApart(attemptId: string): Promise<SentRequest['body'] | undefined>;
}

/**
 * What a conversation's record leaves out, sent beside it so that the person's other devices have it
 * too: the files attached to its messages, and each finished attempt's recording and request body. Each
 * is sent once per page (the server takes the same bytes again as nothing new: a reload sends them again
 * at no harm). A part the server refuses (too large) stays in this browser only, said in the console.
 */
export class ServerParts {
  private readonly sent = new Set<string>();

  constructor(
    private readonly api: TeamApi,
    private readonly here: PartsHere,
  ) {}

  /** Sends what of `conversation` has not been sent; a failure that may pass is returned (try again later). */
  async send(conversation: Conversation): Promise<Failure | undefined> {
    for (const message of conversation.messages) {
      if (message.role === 'user')
        for (const ref of message.attachments ?? []) {
          const failed = await this.once(`attachment:${ref.id}`, async () => {
            const blob = await this.here.attachment(ref.id);
            return blob ? this.api.putAttachment(ref.id, conversation.id, ref.name, blob) : undefined;
          });
          if (failed) return failed;
        }
      if (message.role !== 'assistant') continue;
      for (const attempt of message.attempts) {
        if (attempt.turn.status === 'streaming') continue;
        const failed =
          (await this.once(`request:${attempt.id}`, async () => {
            const body = await this.bodyOf(attempt);
            return body && this.api.putAttemptRecord('requests', attempt.id, conversation.id, { body });
          })) ??
          (await this.once(`recording:${attempt.id}`, async () => {
            const recording = await this.recordingOf(attempt);
            return (
              recording && this.api.putAttemptRecord('recordings', attempt.id, conversation.id, recording)
            );
          }));
        if (failed) return failed;
      }
    }
    return undefined;
  }

  /** The body `attempt` sent: in memory, or in this browser's database only (a load reads none). */
  private async bodyOf({ id, request }: Attempt): Promise<SentRequest['body'] | undefined> {
    if (request.bodyMissing === 'missing') return this.here.bodyKeptApart(id);
    return request.bodyMissing ? undefined : request.body;
  }

  private async recordingOf(attempt: Attempt): Promise<StoredTrace | undefined> {
    if (recordingKeptApart(attempt)) return this.here.recordingKeptApart(attempt.id);
    const { items, raw } = attempt.trace;
    return items.length || raw ? { items, raw } : undefined;
  }

  private async once(
    key: string,
    put: () => Promise<Awaited<ReturnType<TeamApi['putAttachment']>> | undefined>,
  ): Promise<Failure | undefined> {
    if (this.sent.has(key)) return undefined;
    const result = await put();
    if (result && !result.ok) {
      if (result.kind !== 'refused') return result;
      console.warn(`The server would not keep ${key}:`, result.reason);
    }
    this.sent.add(key);
    return undefined;
  }
}

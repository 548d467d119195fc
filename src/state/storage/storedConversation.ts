import { partsText, type TextKind, type Turn } from '../../core/index.ts';
import { sameContent } from '../domain/merge.ts';
import { withFiguresKept } from '../domain/recordings.ts';
import type { AssistantMessage, Attempt, ChatMessage, Conversation, SentRequest } from '../domain/types.ts';
import type { StoredTrace } from '../formats/records.ts';

/**
 * A conversation as its record stores it, and back: the recordings of its attempts (up to megabytes each)
 * are records of their own, written when they change; the conversation's record keeps only their figures.
 * Each attempt's request body (the whole history again, so the bodies grow with the square of the
 * conversation's length) is a record of its own too, written once (`storedRequests.ts`).
 */

/** A request as its conversation's record holds it: its body apart (inline in records from before). */
type RecordRequest = Omit<SentRequest, 'body' | 'bodyMissing'> & { body?: SentRequest['body'] };
/**
 * A turn as a record holds it: `text`, `reasoning` and `refusal` only where they differ from what its parts
 * make (`partsText`). Otherwise each answer's text would be stored twice, for structured clone keeps one
 * copy of an object but not of a string: twice the bytes to write at every checkpoint, and twice to read
 * back (and collect) for every conversation on a reload.
 */
type RecordTurn = Omit<Turn, TextKind> & Partial<Pick<Turn, TextKind>>;
type RecordAttempt = Omit<Attempt, 'request' | 'turn'> & { request: RecordRequest; turn: RecordTurn };
type RecordMessage =
  | Exclude<ChatMessage, AssistantMessage>
  | (Omit<AssistantMessage, 'attempts'> & { attempts: RecordAttempt[] });
/** A conversation as its record holds it. */
export type ConversationRecord = Omit<Conversation, 'messages'> & { messages: RecordMessage[] };

export function attemptsOf(conversation: Conversation): Attempt[] {
  return conversation.messages.flatMap((m) => (m.role === 'assistant' ? m.attempts : []));
}

/**
 * What the record of `conversation` holds: each recording's figures and each request without its body,
 * but where `bodyKept` says the record keeps it (the unload journal: a body the database lacks). A body
 * marked missing is never kept: there is none.
 */
export function recordOf(
  conversation: Conversation,
  bodyKept: (attempt: Attempt) => boolean = () => false,
): ConversationRecord {
  const requestOf = (attempt: Attempt): RecordRequest => {
    const { body, bodyMissing, ...request } = attempt.request;
    return bodyKept(attempt) && !bodyMissing ? { ...request, body } : request;
  };
  return {
    ...conversation,
    messages: conversation.messages.map((m) =>
      m.role === 'assistant'
        ? {
            ...m,
            attempts: m.attempts.map((a) => ({
              ...a,
              request: requestOf(a),
              trace: withFiguresKept(a),
              turn: turnAsStored(a.turn),
            })),
          }
        : m,
    ),
  };
}

function turnAsStored(turn: Turn): RecordTurn {
  const { text, reasoning, refusal, ...stored } = turn;
  const kept: RecordTurn = stored;
  if (text !== partsText(turn.parts, 'text')) kept.text = text;
  if (reasoning !== partsText(turn.parts, 'reasoning')) kept.reasoning = reasoning;
  if (refusal !== partsText(turn.parts, 'refusal')) kept.refusal = refusal;
  return kept;
}

export function withRecordings(
  conversation: Conversation,
  traces: ReadonlyMap<string, StoredTrace>,
): Conversation {
  if (traces.size === 0) return conversation;
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant' || !m.attempts.some((a) => traces.has(a.id))) return m;
    changed = true;
    return {
      ...m,
      attempts: m.attempts.map((a) => {
        const stored = traces.get(a.id);
        return stored ? { ...a, trace: { ...a.trace, items: stored.items, raw: stored.raw } } : a;
      }),
    };
  });
  return changed ? { ...conversation, messages } : conversation;
}

/** A stored copy with `local`'s recordings where they are the same ones (the record holds only their figures). */
export function withLocalRecordings(stored: Conversation, local: Conversation | undefined): Conversation {
  if (!local) return stored;
  const mine = new Map(attemptsOf(local).map((a) => [a.id, a]));
  let changed = false;
  const messages = stored.messages.map((m) => {
    if (m.role !== 'assistant') return m;
    const attempts = m.attempts.map((a) => {
      const own = mine.get(a.id);
      if (!own || own.trace.bytes !== a.trace.bytes || own.trace.endedAt !== a.trace.endedAt) return a;
      if (sameContent(own, { ...a, trace: own.trace })) return own;
      changed = true;
      return { ...a, trace: own.trace };
    });
    if (attempts.every((a, i) => a === m.attempts[i])) return m;
    changed = true;
    return { ...m, attempts };
  });
  return changed ? { ...stored, messages } : stored;
}

const interruptedByReload = {
  code: 'page_reloaded',
  message: 'The page was closed or reloaded while this answer was streaming.',
};

/** Still streaming in a record: in this page, only an answer the server runs can go on (it is resumed). */
const cutByReload = (attempt: Attempt) => attempt.turn.status === 'streaming' && !attempt.relayed;

/**
 * An answer still streaming when the page went away can never finish: it is interrupted, not lost. One
 * the server runs goes on there: the session picks it up (`ChatSession.resumeRelayed`).
 */
export function settleInterrupted(conversation: Conversation): Conversation {
  let changed = false;
  const messages = conversation.messages.map((m) => {
    if (m.role !== 'assistant' || !m.attempts.some(cutByReload)) return m;
    changed = true;
    return {
      ...m,
      attempts: m.attempts.map((a) =>
        cutByReload(a)
          ? { ...a, turn: { ...a.turn, status: 'interrupted' as const, error: interruptedByReload } }
          : a,
      ),
    };
  });
  return changed ? { ...conversation, messages } : conversation;
}

import { type Protocol, protocols, type Turn } from '../core/index.ts';
import type { AssistantMessage, Attempt, TraceItem } from './types.ts';

/**
 * A turn as files a person can attach to a bug report: the raw stream as received (as UTF-8 text), and a JSON
 * trace with the request, timings and events. Credentials are never recorded with a request; as a second
 * guard, the current API key is scrubbed from anything exported.
 */

export function scrub(text: string, secret: string): string {
  return secret.length >= 4 ? text.replaceAll(secret, '[redacted]') : text;
}

export function exportSse(attempt: Attempt, apiKey: string): string {
  return scrub(attempt.trace.raw, apiKey);
}

export interface JsonTrace {
  format: 'hopbase-chat-trace';
  version: 1;
  protocol: Protocol;
  model: string;
  startedAt: string;
  request: Attempt['request'];
  timings: { headersAtMs: number | null; firstOutputAtMs: number | null; endedAtMs: number | null };
  bytes: number;
  /** A cap was reached (`recordingLimits`): the events and the raw stream stop before the answer did. */
  truncated: boolean;
  /**
   * Exported while the answer was still streaming: the trace holds what had arrived by then, and its
   * result has status `streaming`. Replaying it ends where the export was made, like a cut stream.
   */
  partial: boolean;
  events: Attempt['trace']['items'];
  result: Pick<
    Turn,
    'status' | 'text' | 'reasoning' | 'refusal' | 'toolCalls' | 'usage' | 'finishReason' | 'error'
  >;
}

export function exportJsonTrace(message: AssistantMessage, attempt: Attempt, apiKey: string): string {
  const { turn, trace } = attempt;
  const document: JsonTrace = {
    format: 'hopbase-chat-trace',
    version: 1,
    protocol: message.protocol,
    model: message.model,
    startedAt: new Date(attempt.startedAt).toISOString(),
    request: { ...attempt.request, headers: attempt.sentHeaders },
    timings: { headersAtMs: trace.headersAt, firstOutputAtMs: trace.firstOutputAt, endedAtMs: trace.endedAt },
    bytes: trace.bytes,
    truncated: trace.truncated,
    partial: isPartial(attempt),
    events: trace.items,
    result: {
      status: turn.status,
      text: turn.text,
      reasoning: turn.reasoning,
      refusal: turn.refusal,
      toolCalls: turn.toolCalls,
      usage: turn.usage,
      finishReason: turn.finishReason,
      error: turn.error,
    },
  };
  return scrub(JSON.stringify(document, null, 2), apiKey);
}

export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (protocols as readonly string[]).includes(value);
}

/** What an imported JSON trace is trusted for: its events, and its protocol only when it names one of ours. */
export interface ImportedTrace {
  protocol: Protocol | null;
  events: TraceItem[];
}

function isTraceItem(value: unknown): value is TraceItem {
  const item = value as Partial<TraceItem> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof item.t === 'number' &&
    Number.isFinite(item.t) &&
    (item.kind === 'event' || item.kind === 'comment') &&
    typeof item.event === 'string' &&
    typeof item.data === 'string'
  );
}

/**
 * Checks a parsed JSON file before it is replayed: anything a person imports is untrusted input.
 * Throws an error that says what is wrong, in words fit for the import form.
 */
export function readJsonTrace(value: unknown): ImportedTrace {
  const document = value as Partial<Record<keyof JsonTrace, unknown>> | null;
  if (typeof document !== 'object' || document === null || document.format !== 'hopbase-chat-trace') {
    throw new Error('This JSON file is not a HopBase Chat trace (its "format" is not "hopbase-chat-trace").');
  }
  if (!Array.isArray(document.events)) throw new Error('This trace has no "events" list.');
  const bad = document.events.findIndex((item) => !isTraceItem(item));
  if (bad >= 0) {
    throw new Error(
      `Event ${bad + 1} of this trace is not a recorded item ({ t: number, kind: "event" | "comment", event: string, data: string }).`,
    );
  }
  return {
    protocol: isProtocol(document.protocol) ? document.protocol : null,
    events: document.events as TraceItem[],
  };
}

/** Which protocol a recorded stream speaks, from the event types it holds. */
export function detectProtocol(sse: string): Protocol | null {
  if (/"type"\s*:\s*"(message_start|content_block_start|content_block_delta)"/.test(sse)) return 'messages';
  if (/"type"\s*:\s*"response\./.test(sse)) return 'responses';
  if (sse.includes('chat.completion.chunk') || /"choices"\s*:/.test(sse)) return 'chat';
  return null;
}

/** Whether the attempt is still streaming: an export now holds what has arrived so far, not the whole answer. */
export function isPartial(attempt: Attempt): boolean {
  return attempt.turn.status === 'streaming';
}

/**
 * `hopbase-<protocol>-<model>-<start>.sse`, and what the file lacks said in its name: `-partial` when
 * exported while the answer still streamed, `-capped` when the recording reached its caps.
 */
export function exportFileName(
  message: AssistantMessage,
  attempt: Attempt,
  extension: 'sse' | 'json',
): string {
  const stamp = new Date(attempt.startedAt).toISOString().replaceAll(':', '-').slice(0, 19);
  const notes = `${isPartial(attempt) ? '-partial' : ''}${attempt.trace.truncated ? '-capped' : ''}`;
  return `hopbase-${message.protocol}-${message.model}-${stamp}${notes}.${extension}`;
}

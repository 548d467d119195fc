import * as v from 'valibot';
import type { Protocol, Turn } from '../../core/index.ts';
import type { AssistantMessage, Attempt, TraceItem } from '../domain/types.ts';
import { importedTraceFile } from './traceFileSchema.ts';

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

/** What an imported JSON trace is trusted for: its events, and its protocol only when it names one of ours. */
export interface ImportedTrace {
  protocol: Protocol | null;
  events: TraceItem[];
}

/**
 * Checks a parsed JSON file before it is replayed (`traceFileSchema.ts`): anything a person imports is
 * untrusted input. Throws an error that says what is wrong, in words fit for the import form.
 */
export function readJsonTrace(value: unknown): ImportedTrace {
  const read = v.safeParse(importedTraceFile, value, { abortEarly: true });
  if (read.success) return { protocol: read.output.protocol, events: read.output.events };
  const [issue] = read.issues;
  const event = issue.path?.[0]?.key === 'events' ? issue.path[1]?.key : undefined;
  if (typeof event !== 'number') throw new Error(issue.message);
  throw new Error(
    `Event ${event + 1} of this trace is not a recorded item ({ t: number, kind: "event" | "comment", event: string, data: string }).`,
  );
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

import * as v from 'valibot';
import {
  type HttpError,
  partsText,
  protocols,
  reasoningLevels,
  type SamplingParameters,
  type Turn,
} from '../../core/index.ts';
import { storedTitle } from '../domain/conversationTitle.ts';
import { recordingLimits } from '../domain/recordings.ts';
import type { AnswerSource, Attempt, ChatMessage, TraceItem } from '../domain/types.ts';
import {
  aList,
  aNumber,
  anObject,
  aString,
  fields,
  isPlain,
  looseFields,
  onlyFields,
  stringsById,
} from './validation.ts';

/**
 * The records IndexedDB holds, as valibot schemas (`records.ts` reads with them; a backup's conversations
 * are the same records). Strict where the UI depends on a field; a field added after the first records
 * were written is optional, with its default, so every record an earlier version wrote still loads; a
 * field renamed since is read under its old name too. Fields a schema does not name are kept as they are.
 */

/** Offsets from a clock, so finite. */
export function isTraceItem(item: unknown): item is TraceItem {
  return (
    isPlain(item) &&
    typeof item.t === 'number' &&
    Number.isFinite(item.t) &&
    (item.kind === 'event' || item.kind === 'comment') &&
    typeof item.event === 'string' &&
    typeof item.data === 'string'
  );
}

/**
 * One recorded event or comment. A predicate rather than an object schema: a recording holds up to
 * 20,000 of them, which it checks ten times faster, without copying each.
 */
export const traceItem = v.custom<TraceItem>(isTraceItem, 'a recorded event or comment');

const optionalNumber = v.optional(v.nullable(aNumber), null);
const optionalString = (fallback: string) => v.optional(aString, fallback);
const optionalStringOrNull = v.optional(v.nullable(aString), null);

const toolCall = fields({ id: aString, name: aString, arguments: aString });

const textPart = <K extends 'text' | 'reasoning' | 'refusal'>(kind: K) =>
  looseFields({ kind: v.literal(kind), key: aString, text: aString });

const turnPart = v.pipe(
  anObject,
  v.variant(
    'kind',
    [
      textPart('text'),
      textPart('reasoning'),
      textPart('refusal'),
      looseFields({ kind: v.literal('tool_call'), key: aString, call: toolCall }),
    ],
    'text, reasoning, refusal or tool_call',
  ),
);

const usage = fields({
  inputTokens: aNumber,
  outputTokens: aNumber,
  totalTokens: aNumber,
  reasoningTokens: v.optional(aNumber),
  cachedTokens: v.optional(aNumber),
  cacheWriteTokens: v.optional(aNumber),
  cacheWrite1hTokens: v.optional(aNumber),
  gatewayCost: v.optional(aNumber),
});

const turn = v.pipe(
  fields({
    status: v.picklist(['streaming', 'complete', 'error', 'interrupted', 'aborted'], 'a turn status'),
    // Left out where the parts make them (`RecordTurn` in `storedConversation.ts`): made again below.
    text: v.optional(aString),
    reasoning: v.optional(aString),
    refusal: v.optional(aString),
    toolCalls: v.optional(aList(toolCall), () => []),
    parts: v.optional(aList(turnPart), () => []),
    usage: v.nullish(usage, null),
    finishReason: optionalStringOrNull,
    rawFinishReason: optionalStringOrNull,
    error: v.nullish(fields({ code: aString, message: aString }), null),
    responseId: optionalStringOrNull,
    model: optionalStringOrNull,
  }),
  // The finish reasons are the core's to name; its reasoning state is checked where it is sent back.
  // The parts' text wins where they make one: a version from before read such a record's missing text as ''
  // (and may have written that back), while the parts kept it.
  v.transform((t) => {
    const turn = t as typeof t & Turn;
    turn.text = partsText(t.parts, 'text') || (t.text ?? '');
    turn.reasoning = partsText(t.parts, 'reasoning') || (t.reasoning ?? '');
    turn.refusal = partsText(t.parts, 'refusal') || (t.refusal ?? '');
    return turn;
  }),
);

const headers = v.pipe(anObject, v.record(v.string(), aString));

/**
 * A request's body: inline, or (absent) in its own record, to be joined in by whoever reads that record;
 * until then it is empty and marked missing. An inline body keeps the mark a backup or export gave it.
 */
const request = v.pipe(
  fields({
    url: aString,
    path: aString,
    headers: v.optional(headers, () => ({})),
    body: v.optional(anObject),
    bodyMissing: v.optional(v.unknown()),
  }),
  v.transform(({ body, bodyMissing, ...request }): Attempt['request'] => {
    if (body === undefined) return { ...request, body: {}, bodyMissing: 'missing' };
    return bodyMissing === 'missing' || bodyMissing === 'unreadable'
      ? { ...request, body, bodyMissing }
      : { ...request, body };
  }),
);

const traceFigures = v.pipe(
  fields({
    headersAt: optionalNumber,
    firstOutputAt: optionalNumber,
    endedAt: optionalNumber,
    bytes: v.optional(aNumber, 0),
    outputEvents: v.optional(aNumber),
    // Older records counted "delta events"; the field is now output events.
    deltaEvents: v.optional(aNumber),
    items: v.optional(aList(traceItem), () => []),
    raw: optionalString(''),
    truncated: v.optional(v.boolean('true or false'), false),
    silenceBeforeEndMs: v.optional(aNumber),
  }),
  v.transform(({ deltaEvents, outputEvents, ...trace }) => ({
    ...trace,
    outputEvents: outputEvents ?? deltaEvents ?? 0,
  })),
);

const attempt = fields({
  id: aString,
  startedAt: aNumber,
  request,
  sentHeaders: v.optional(headers, () => ({})),
  turn,
  httpError: v.nullish(
    v.pipe(
      fields({ status: aNumber, code: aString, message: aString }),
      // The rest is as the core made it (older records may lack some).
      v.transform((error) => error as typeof error & HttpError),
    ),
    null,
  ),
  // Absent in records from before recordings: none, every figure its default.
  trace: v.optional(traceFigures, () => ({})),
  relayed: v.optional(v.literal(true)),
});

const answerSource = v.pipe(
  anObject,
  v.variant(
    'kind',
    [v.object({ kind: v.literal('gateway') }), v.object({ kind: v.literal('replay'), file: aString })],
    'gateway or replay',
  ),
);

/** A user message's attachments: references to blobs stored apart (`attachmentBlobs.ts`). */
const attachmentRef = fields({
  id: aString,
  name: aString,
  mimeType: aString,
  size: aNumber,
  kind: v.picklist(['image', 'text'], 'image or text'),
});

/** Where a message sits in its conversation's tree: absent in records from before branches. */
const placed = {
  id: aString,
  createdAt: v.optional(aNumber, 0),
  parentId: v.optional(v.nullable(aString)),
};

/** Records from before answers named their source: a replay's request URL said so. */
function sourceFromRequest(attempts: readonly Attempt[]): AnswerSource {
  const first = attempts[0]?.request.url ?? '';
  return first.startsWith('replay:') ? { kind: 'replay', file: first.slice(7) } : { kind: 'gateway' };
}

const message = v.pipe(
  anObject,
  v.variant(
    'role',
    [
      looseFields({
        ...placed,
        role: v.literal('user'),
        text: aString,
        attachments: v.optional(aList(attachmentRef)),
      }),
      looseFields({
        ...placed,
        role: v.literal('tool'),
        toolCallId: aString,
        name: aString,
        content: aString,
      }),
      looseFields({
        ...placed,
        role: v.literal('assistant'),
        protocol: v.picklist(protocols, `one of ${protocols.join(', ')}`),
        model: aString,
        source: v.optional(answerSource),
        attempts: aList(attempt),
      }),
    ],
    'user, assistant or tool',
  ),
  v.transform((m): ChatMessage => {
    if (m.role !== 'assistant') return m;
    return { ...m, source: m.source ?? sourceFromRequest(m.attempts) };
  }),
);

/** The toolbar's choices as this version can use them: others (a damaged record, a newer version's) are left out. */
const choices = v.fallback(
  v.optional(
    onlyFields({
      protocol: v.picklist(protocols),
      model: v.pipe(v.string(), v.nonEmpty()),
      reasoning: v.picklist(reasoningLevels),
    }),
  ),
  undefined,
);

const maybeNumber = v.fallback(v.optional(aNumber), undefined);

/**
 * A conversation's sampling parameters: each one of the right type kept, any other (a damaged record's) left
 * out, so it is not sent; one this version does not know is kept as stored. Ranges are each protocol's and
 * checked before sending, not here.
 */
export const parameters = v.fallback(
  v.optional(
    v.pipe(
      fields({
        temperature: maybeNumber,
        topP: maybeNumber,
        maxOutputTokens: maybeNumber,
        stop: v.fallback(v.optional(v.array(v.string())), undefined),
        seed: maybeNumber,
        presencePenalty: maybeNumber,
        frequencyPenalty: maybeNumber,
        cache: v.fallback(v.optional(v.literal(true)), undefined),
      }),
      v.transform(
        (read) =>
          Object.fromEntries(
            Object.entries(read).filter(([, value]) => value !== undefined),
          ) as SamplingParameters,
      ),
    ),
  ),
  undefined,
);

const aSchema = v.pipe(
  anObject,
  v.transform((schema) => schema as Record<string, unknown>),
);

/** A tool as kept (a conversation's, a preset's, the library's); one without a name cannot be offered. */
export const savedTool = onlyFields({
  name: v.pipe(aString, v.nonEmpty()),
  description: v.optional(aString),
  parameters: aSchema,
  resultTemplate: v.optional(aString),
});

/** A conversation's or preset's tools; a setup that cannot be read is left out (the defaults then). */
export const toolSetup = v.fallback(
  v.optional(
    onlyFields({
      tools: aList(savedTool),
      choice: v.optional(
        v.union([
          v.object({ kind: v.picklist(['auto', 'required', 'none']) }),
          v.object({ kind: v.literal('tool'), name: v.pipe(aString, v.nonEmpty()) }),
        ]),
      ),
      output: v.optional(onlyFields({ name: v.pipe(aString, v.nonEmpty()), schema: aSchema })),
    }),
  ),
  undefined,
);

/** One `conversation:<id>` record (its id is checked against its key, its messages' parents by `records.ts`). */
export const conversationRecord = v.pipe(
  fields({
    id: aString,
    title: aString,
    createdAt: aNumber,
    updatedAt: v.optional(aNumber),
    messages: aList(message),
    /** The version chosen at each fork: message ids by fork. */
    selected: v.optional(stringsById),
    systemPrompt: v.optional(aString),
    choices,
    parameters,
    toolSetup,
    /** Read apart (`recordRevision`): even a record that cannot be read has one. */
    revision: v.optional(v.unknown()),
  }),
  v.transform(({ revision: _revision, ...conversation }) => ({
    ...conversation,
    title: storedTitle(conversation.title),
    updatedAt: conversation.updatedAt ?? conversation.createdAt,
  })),
);

/** A record's revision: records from before revisions have none (0). */
export const revision = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/** One `trace:<attemptId>` record. */
export const traceRecord = onlyFields({ items: aList(traceItem), raw: aString });

/** A recording packed (`PackedTrace`), whole or one part: its lines are checked as they are parsed (`records.ts`). */
export const packedTraceRecord = onlyFields({ packed: aString, raw: aString });

/** The `trace:<attemptId>` record of a recording written in parts (`TracePartsHead`): how many follow. */
export const tracePartsHead = onlyFields({
  parts: v.pipe(
    aNumber,
    v.safeInteger('a whole number'),
    v.minValue(1, 'at least 1'),
    v.maxValue(recordingLimits.parts, `at most ${recordingLimits.parts}`),
  ),
});

/** One `request:<attemptId>` record. */
export const requestRecord = onlyFields({ body: anObject });

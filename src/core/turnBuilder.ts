import type { ReasoningState } from './reasoning.ts';
import type { FinishReason, ToolCall, Turn, TurnPart, Usage } from './turn.ts';

/**
 * Pure state transitions shared by the three protocol reducers: each reducer only decides which
 * of these an event means. Every function returns a new Turn (or the same one when nothing changes).
 * `text`, `reasoning`, `refusal` and `toolCalls` are kept in step with `parts` here, in one place,
 * so that reading them stays O(1) while a long answer streams.
 */

export type TextKind = 'text' | 'reasoning' | 'refusal';

// Reasoning arrives in paragraphs (summary parts, thinking blocks): keep them apart in the flat string.
const separator: Record<TextKind, string> = { text: '', reasoning: '\n\n', refusal: '' };

function findPart(parts: TurnPart[], kind: TurnPart['kind'], key: string): number {
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.key === key && part.kind === kind) return i;
  }
  return -1;
}

function replaceAt<T>(items: T[], index: number, item: T): T[] {
  const copy = items.slice();
  copy[index] = item;
  return copy;
}

function appended<T>(items: T[], item: T): T[] {
  const copy = items.slice();
  copy.push(item);
  return copy;
}

/**
 * The flat string of `kind` that a turn's `parts` make: what `text`, `reasoning` and `refusal` hold (a
 * stored turn leaves them out when they are this, and its reader makes them again).
 */
export function partsText(parts: readonly TurnPart[], kind: TextKind): string {
  let out = '';
  for (const part of parts) {
    if (part.kind === kind && part.text !== '')
      out = out === '' ? part.text : out + separator[kind] + part.text;
  }
  return out;
}

/**
 * The next Turn with every field written out: every Turn made here comes from this one object literal,
 * never from a spread (why: docs/performance.md).
 */
function withContent(
  turn: Turn,
  parts: TurnPart[],
  kind: TextKind | null,
  flat: string,
  toolCalls: ToolCall[],
): Turn {
  return {
    status: turn.status,
    text: kind === 'text' ? flat : turn.text,
    reasoning: kind === 'reasoning' ? flat : turn.reasoning,
    refusal: kind === 'refusal' ? flat : turn.refusal,
    toolCalls,
    parts,
    usage: turn.usage,
    finishReason: turn.finishReason,
    rawFinishReason: turn.rawFinishReason,
    error: turn.error,
    responseId: turn.responseId,
    model: turn.model,
    reasoningState: turn.reasoningState,
  };
}

/** A copy of `turn` to change a field of (not a spread: see `withContent`). */
function copy(turn: Turn): Turn {
  return withContent(turn, turn.parts, null, '', turn.toolCalls);
}

function hasLaterText(parts: TurnPart[], kind: TextKind, index: number): boolean {
  for (let i = index + 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.kind === kind && part.text !== '') return true;
  }
  return false;
}

/** Whether a part of `kind` before `index` has text. */
function hasEarlierText(parts: TurnPart[], kind: TextKind, index: number): boolean {
  for (let i = 0; i < index; i++) {
    const part = parts[i]!;
    if (part.kind === kind && part.text !== '') return true;
  }
  return false;
}

/**
 * How many deltas of a part are joined into one string. A text grown one delta at a time is a rope of one
 * node per delta (the delta and a concatenation), and every one of them that is alive when the young
 * generation is collected gets copied, twice: most of the reader's GC time. Joined in batches, a part's text
 * is a rope of one node per batch, and the deltas in between are garbage, which costs the collector nothing.
 */
const batch = 32;

/** One part being grown: its text is `head` + the deltas in `pieces`. */
class GrowingPart {
  /** The part last made with this text; a delta to any other part starts again. */
  part: TurnPart | undefined = undefined;
  head = '';
  readonly pieces: string[] = [];
}

/**
 * Grows the texts of one stream's parts (text, reasoning, tool arguments) in batches (see `batch`): the
 * same strings as `previous + delta`, made of fewer, larger pieces. A few parts at once, since deltas of
 * parallel tool calls interleave. One per stream, owned by its stepper; a class (see docs/performance.md).
 */
export class TextGrowth {
  private readonly growing = [new GrowingPart(), new GrowingPart(), new GrowingPart(), new GrowingPart()];
  /** The entry used last (tried first), and the one a new part takes (the oldest). */
  private last = 0;
  private next = 0;

  /** `previous + delta`, where `previous` is `part`'s text (no part yet: ''). */
  grow(part: TurnPart | undefined, previous: string, delta: string): string {
    const growing = this.growing;
    let at = this.last;
    if (part === undefined || growing[at]!.part !== part) {
      at = -1;
      if (part !== undefined) for (let i = 0; i < growing.length; i++) if (growing[i]!.part === part) at = i;
      if (at === -1) {
        at = this.next;
        this.next = (at + 1) % growing.length;
        const entry = growing[at]!;
        entry.head = previous;
        entry.pieces.length = 0;
      }
      this.last = at;
    }
    const entry = growing[at]!;
    const pieces = entry.pieces;
    pieces.push(delta);
    if (pieces.length < batch) return previous + delta;
    entry.head += pieces.join('');
    pieces.length = 0;
    return entry.head;
  }

  /** The part just made with the text `grow` gave: its next delta continues the batch. */
  made(part: TurnPart): void {
    this.growing[this.last]!.part = part;
  }
}

/** `previous + delta`, through `growth` when there is one. */
function grown(growth: TextGrowth | undefined, part: TurnPart | undefined, previous: string, delta: string) {
  return growth === undefined ? previous + delta : growth.grow(part, previous, delta);
}

/**
 * `delta` added to the text part `key` of `kind`. `owned`: nobody but the caller holds `turn` or its parts
 * array (readTurn's sink has handed neither out), so they are written in place instead of copied: a Turn and
 * a copy of the parts per delta were most of what reading a delta allocated. A part object is never written
 * into (an older parts array may hold it). `growth`: the stream's, to grow the text in batches.
 */
export function appendText(
  turn: Turn,
  kind: TextKind,
  key: string,
  delta: string,
  owned = false,
  growth?: TextGrowth,
): Turn {
  const index = findPart(turn.parts, kind, key);
  if (delta === '' && index !== -1) return turn;
  const old = index === -1 ? undefined : turn.parts[index];
  const previous = old === undefined ? '' : (old as { text: string }).text;
  const text = grown(growth, old, previous, delta);
  const part = { kind, key, text } as TurnPart;
  growth?.made(part);
  let parts: TurnPart[];
  if (owned) {
    parts = turn.parts;
    if (index === -1) parts.push(part);
    else parts[index] = part;
  } else parts = index === -1 ? appended(turn.parts, part) : replaceAt(turn.parts, index, part);
  let flat: string;
  // Growing a part that a later same-kind part already follows: the flat string must be rebuilt in part order.
  if (index !== -1 && hasLaterText(parts, kind, index)) flat = partsText(parts, kind);
  // The usual case, one part of this kind: the flat string is that part's text, so the same string serves
  // both (one concatenation per delta instead of two, and half the rope kept alive).
  else if (!hasEarlierText(parts, kind, index === -1 ? parts.length - 1 : index)) flat = text;
  else {
    const before = turn[kind];
    flat =
      previous === '' && before !== '' && delta !== '' ? before + separator[kind] + delta : before + delta;
  }
  if (!owned) return withContent(turn, parts, kind, flat, turn.toolCalls);
  if (kind === 'text') turn.text = flat;
  else if (kind === 'reasoning') turn.reasoning = flat;
  else turn.refusal = flat;
  return turn;
}

/** A `.done` event's full text: normally equal to the deltas, but authoritative when they differ or never came. */
export function setText(turn: Turn, kind: TextKind, key: string, full: string): Turn {
  const index = findPart(turn.parts, kind, key);
  if (index === -1) return appendText(turn, kind, key, full);
  if ((turn.parts[index] as { text: string }).text === full) return turn;
  const parts = replaceAt(turn.parts, index, { kind, key, text: full } as TurnPart);
  return withContent(turn, parts, kind, partsText(parts, kind), turn.toolCalls);
}

/**
 * `turn` with `call` as the tool_call part at `index` (-1: a new part at the end). `owned`: as for
 * `appendText`; the tool calls array is copied all the same (a turn handed out may share it) and set in the
 * turn. `growth`: the one that grew the call's arguments.
 */
function putToolCall(
  turn: Turn,
  key: string,
  index: number,
  call: ToolCall,
  owned = false,
  growth?: TextGrowth,
): Turn {
  const part: TurnPart = { kind: 'tool_call', key, call };
  growth?.made(part);
  const parts = turn.parts;
  let nextParts: TurnPart[];
  let toolCalls: ToolCall[];
  if (index === -1) {
    toolCalls = appended(turn.toolCalls, call);
    if (owned) parts.push(part);
    nextParts = owned ? parts : appended(parts, part);
  } else {
    // `toolCalls` lists the tool_call parts in order: the call's position there is the number before it.
    let position = 0;
    for (let i = 0; i < index; i++) if (parts[i]!.kind === 'tool_call') position++;
    toolCalls = replaceAt(turn.toolCalls, position, call);
    if (owned) parts[index] = part;
    nextParts = owned ? parts : replaceAt(parts, index, part);
  }
  if (!owned) return withContent(turn, nextParts, null, '', toolCalls);
  turn.toolCalls = toolCalls;
  return turn;
}

function callAt(turn: Turn, index: number): ToolCall | undefined {
  return index === -1 ? undefined : (turn.parts[index] as { call: ToolCall }).call;
}

/** Opens a tool call, or fills in the id and name on a call whose arguments arrived first. */
export function startToolCall(turn: Turn, key: string, id: string, name: string, args = ''): Turn {
  const index = findPart(turn.parts, 'tool_call', key);
  const call = callAt(turn, index);
  // A finished item names the call again: nothing new.
  if (call !== undefined && args === '' && (call.id || id) === call.id && (call.name || name) === call.name)
    return turn;
  const next = call
    ? { id: call.id || id, name: call.name || name, arguments: call.arguments + args }
    : { id, name, arguments: args };
  return putToolCall(turn, key, index, next);
}

/** `delta` added to the arguments of tool call `key`; `owned` and `growth` as for `appendText`. */
export function appendToolArguments(
  turn: Turn,
  key: string,
  delta: string,
  owned = false,
  growth?: TextGrowth,
): Turn {
  if (delta === '') return turn;
  const index = findPart(turn.parts, 'tool_call', key);
  const old = index === -1 ? undefined : turn.parts[index];
  const call = old === undefined ? undefined : (old as { call: ToolCall }).call;
  const args = grown(growth, old, call === undefined ? '' : call.arguments, delta);
  const next: ToolCall =
    call === undefined
      ? { id: '', name: '', arguments: args }
      : { id: call.id, name: call.name, arguments: args };
  return putToolCall(turn, key, index, next, owned, growth);
}

export function setToolArguments(turn: Turn, key: string, full: string): Turn {
  const index = findPart(turn.parts, 'tool_call', key);
  const call = callAt(turn, index);
  if (call?.arguments === full) return turn;
  return putToolCall(turn, key, index, { id: call?.id ?? '', name: call?.name ?? '', arguments: full });
}

export function hasToolCall(turn: Turn, key: string): boolean {
  return findPart(turn.parts, 'tool_call', key) !== -1;
}

/**
 * Reasoning state the provider handed out (a signed thinking block, a reasoning item), kept as it came; a
 * later event about the same piece (same protocol and key) replaces it. Slow-path events only.
 */
export function putReasoningState(turn: Turn, entry: ReasoningState): Turn {
  const list = turn.reasoningState ?? [];
  const index = list.findIndex((e) => e.protocol === entry.protocol && e.key === entry.key);
  const next = copy(turn);
  next.reasoningState = index === -1 ? appended(list, entry) : replaceAt(list, index, entry);
  return next;
}

export function setUsage(turn: Turn, usage: Usage): Turn {
  const next = copy(turn);
  next.usage = usage;
  return next;
}

export function setIdentity(
  turn: Turn,
  responseId: string | null | undefined,
  model: string | null | undefined,
): Turn {
  const id = responseId || turn.responseId;
  const m = model || turn.model;
  if (id === turn.responseId && m === turn.model) return turn;
  const next = copy(turn);
  next.responseId = id;
  next.model = m;
  return next;
}

export function setFinish(turn: Turn, finishReason: FinishReason, raw: string): Turn {
  const next = copy(turn);
  next.finishReason = finishReason;
  next.rawFinishReason = raw;
  return next;
}

export function complete(turn: Turn): Turn {
  const next = copy(turn);
  next.status = 'complete';
  return next;
}

export function fail(turn: Turn, code: string, message: string): Turn {
  const next = copy(turn);
  next.status = 'error';
  next.error = { code, message };
  return next;
}

/** Usage from a protocol's own counts; the optional ones are set only when the server reported them. */
export function usageFrom(
  input: number | null | undefined,
  output: number | null | undefined,
  total: number | null | undefined,
  reasoning: number | null | undefined,
  cached: number | null | undefined,
  gatewayCost?: number | null,
): Usage {
  const inputTokens = input ?? 0;
  const outputTokens = output ?? 0;
  const usage: Usage = { inputTokens, outputTokens, totalTokens: total ?? inputTokens + outputTokens };
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  if (typeof cached === 'number') usage.cachedTokens = cached;
  if (typeof gatewayCost === 'number' && gatewayCost >= 0) usage.gatewayCost = gatewayCost;
  return usage;
}

import { partsText, type TextKind, type TurnPart } from '../../src/core/index.ts';
import { fold, markdownToPlain } from '../../src/core/searchText.ts';

/**
 * What a conversation's search column holds: the text the sidebar's search reads (its title, what the
 * person wrote, each answer's current attempt, tool calls and results), folded as the browser folds it, so
 * the database finds what the browser's search would. The record's shape is the browser's: read here
 * field by field, tolerating whatever is missing (the browser validates records; the server stores them).
 */

/** Between fields: a query never holds it (`searchPattern` strips it), so no match spans two fields. */
const separator = '\u0001';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * A turn's flat text of `kind`, as the browser reads it back: the record leaves it out where its parts
 * make it, and their text wins over a stored one.
 */
function flat(turn: Record<string, unknown>, kind: TextKind): string {
  const parts = Array.isArray(turn.parts) ? turn.parts : [];
  const fromParts = partsText(
    parts.filter((part): part is TurnPart => isObject(part) && typeof part.text === 'string'),
    kind,
  );
  return fromParts || text(turn[kind]);
}

function messageTexts(message: unknown): string[] {
  if (!isObject(message)) return [];
  if (message.role === 'user') return [text(message.text)];
  if (message.role === 'tool') return [text(message.content)];
  if (message.role !== 'assistant' || !Array.isArray(message.attempts)) return [];
  const current: unknown = message.attempts[message.attempts.length - 1];
  const turn = isObject(current) && isObject(current.turn) ? current.turn : {};
  const calls = Array.isArray(turn.toolCalls) ? turn.toolCalls.filter(isObject) : [];
  return [
    markdownToPlain(flat(turn, 'reasoning')),
    markdownToPlain(flat(turn, 'text')),
    flat(turn, 'refusal'),
    ...calls.map((call) => `${text(call.name)} ${text(call.arguments)}`),
  ];
}

/** PostgreSQL's text cannot hold the NUL character. */
const withoutNul = (value: string) => value.replaceAll('\u0000', '');

export function searchTextOf(title: string, messages: readonly unknown[]): string {
  const fields = [title, ...messages.flatMap(messageTexts)].filter((field) => field !== '');
  return withoutNul(fold(fields.join(separator)));
}

/** A `LIKE` pattern for a query (folded, trimmed, wildcards escaped), or null when nothing is left to find. */
export function searchPattern(query: string): string | null {
  const folded = withoutNul(fold(query).replaceAll(separator, '')).trim();
  return folded ? `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
}

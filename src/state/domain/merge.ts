import { ownValue } from './idRecord.ts';
import type { Attempt, ChatMessage, Conversation } from './types.ts';

/**
 * Two copies of one conversation, made apart (two tabs, or this tab before and after a reload), joined
 * so that nothing either holds is lost. Messages and attempts are only ever added, never removed, so the
 * join is their union by id; where both copies hold the same attempt, the one further along wins. Each
 * copy's choice of versions at a fork is kept where the other made none; where both chose, the local one.
 */

const reloadCode = 'page_reloaded';

/**
 * How far an attempt got: bytes received first, then output, then its state: ended, still streaming,
 * or marked interrupted by a reload (a guess made by a tab that had not been streaming it).
 */
function progress(attempt: Attempt): [number, number, number] {
  const { turn, trace } = attempt;
  const ended = turn.error?.code === reloadCode ? 0 : turn.status === 'streaming' ? 1 : 2;
  return [trace.bytes, turn.text.length + turn.reasoning.length + turn.toolCalls.length, ended];
}

function further(local: Attempt, remote: Attempt): Attempt {
  if (local === remote) return local;
  const a = progress(local);
  const b = progress(remote);
  for (let i = 0; i < a.length; i++) {
    if (a[i]! > b[i]!) return local;
    if (a[i]! < b[i]!) return remote;
  }
  return local;
}

function mergeAttempts(local: Attempt[], remote: Attempt[]): Attempt[] {
  if (local === remote) return local;
  const byId = new Map(remote.map((a) => [a.id, a]));
  const out: Attempt[] = [];
  const seen = new Set<string>();
  // Attempts are appended in time order in one tab; the union keeps each copy's order, local first on ties.
  for (const attempt of [...local, ...remote].sort((x, y) => x.startedAt - y.startedAt)) {
    if (seen.has(attempt.id)) continue;
    seen.add(attempt.id);
    const other = byId.get(attempt.id);
    const own = local.find((a) => a.id === attempt.id);
    out.push(own && other ? further(own, other) : attempt);
  }
  return out;
}

function mergeMessage(local: ChatMessage, remote: ChatMessage): ChatMessage {
  if (local === remote || local.role !== 'assistant' || remote.role !== 'assistant') return local;
  const attempts = mergeAttempts(local.attempts, remote.attempts);
  if (attempts === local.attempts || sameList(attempts, local.attempts)) return local;
  if (sameList(attempts, remote.attempts)) return remote;
  return { ...local, attempts };
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Fields with a rule of their own; every other field, one added later too, is merged as a whole value. */
const OWN_RULES = new Set(['id', 'createdAt', 'updatedAt', 'messages', 'selected']);

/**
 * Each key of `local` and `remote` joined against `base`: a value changed on one side only keeps that
 * change; changed on both (or with no base), the local one wins. A key set to undefined is absent.
 */
function mergeKeys(
  local: Readonly<Record<string, unknown>>,
  remote: Readonly<Record<string, unknown>>,
  base: Readonly<Record<string, unknown>> | null,
  skip: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const key of new Set([...Object.keys(remote), ...Object.keys(local)])) {
    if (skip.has(key)) continue;
    const here = ownValue(local, key);
    const unchangedHere = base ? sameContent(here, ownValue(base, key)) : here === undefined;
    const value = unchangedHere ? ownValue(remote, key) : here;
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * `local` and `remote` joined. `base` is the copy both came from, when known: every field changed on one
 * side only keeps that change (the choice at each fork on its own); changed on both, or with no base, the
 * local one wins (a fork's choice: the one made where the other side made none). Messages are their union.
 */
export function mergeConversation(
  local: Conversation,
  remote: Conversation,
  base?: Partial<Conversation> | null,
): Conversation {
  if (local === remote) return local;
  const remoteById = new Map(remote.messages.map((m) => [m.id, m]));
  const localIds = new Set(local.messages.map((m) => m.id));
  const union: ChatMessage[] = local.messages.map((m) => {
    const other = remoteById.get(m.id);
    return other ? mergeMessage(m, other) : m;
  });
  for (const m of remote.messages) if (!localIds.has(m.id)) union.push(m);
  // Messages from either side in the order they were written; a stable sort keeps each side's own order.
  const messages = union
    .map((m, i) => [m, i] as const)
    .sort(([a, i], [b, j]) => a.createdAt - b.createdAt || i - j)
    .map(([m]) => m);
  const fields = mergeKeys(asRecord(local), asRecord(remote), base ? asRecord(base) : null, OWN_RULES);
  // A base without some field (a journal entry keeps only the title) leaves it to the local copy.
  const selected = mergeKeys(
    local.selected ?? {},
    remote.selected ?? {},
    base ? (base.selected ?? {}) : null,
  );
  const merged = {
    ...fields,
    id: local.id,
    createdAt: Math.min(local.createdAt, remote.createdAt),
    updatedAt: Math.max(local.updatedAt, remote.updatedAt),
    messages: sameList(messages, local.messages) ? local.messages : messages,
    ...(Object.keys(selected).length > 0 && { selected: sameSelected(selected, local, remote) }),
  } as Conversation;
  if (merged.messages === local.messages && sameContent(merged, local)) return local;
  return merged;
}

/** The merged choices, as the copy that already holds them when one does (kept as the same object). */
function sameSelected(selected: Record<string, unknown>, ...copies: Conversation[]): Record<string, string> {
  for (const copy of copies) if (sameContent(selected, copy.selected)) return copy.selected!;
  return { ...(selected as Record<string, string>) };
}

const asRecord = (value: object) => value as Readonly<Record<string, unknown>>;

/** Both copies' choices at each fork; the local one where both chose. */
function mergeSelected(
  local: Record<string, string> | undefined,
  remote: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!remote || local === remote) return local;
  if (!local) return remote;
  return Object.keys(remote).every((fork) => Object.hasOwn(local, fork)) ? local : { ...remote, ...local };
}

/**
 * A copy another tab stored, as this tab shows it: this tab's choice of versions kept at each fork it
 * chose, the stored choice only where it made none (a tab shows what its person chose).
 */
export function withOwnChoices(stored: Conversation, local: Conversation): Conversation {
  const selected = mergeSelected(local.selected, stored.selected);
  return sameContent(selected, stored.selected) ? stored : { ...stored, selected };
}

/** Whether two values hold the same data, whichever objects hold it (a key set to undefined counts as absent). */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameContent(x, b[i]));
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const key of keys) if (!sameContent(ownValue(x, key), ownValue(y, key))) return false;
  return true;
}

import { shownBranch, type Version, versionOf } from '../../state/domain/branches.ts';
import type { ChatMessage, Conversation } from '../../state/domain/types.ts';

type Branching = Pick<Conversation, 'messages' | 'selected'>;

/**
 * What the pane shows of a conversation's tree, derived from its shape only: the messages' ids, parents
 * and tool results, and the versions chosen. A streaming answer replaces its message (and the list) on
 * every frame but changes none of these, so the layout is derived again only when a message is added or
 * another version chosen, not once per frame.
 */
export interface BranchLayout {
  /** The list it was derived from (the messages in it may since have new content, never a new shape). */
  from: Branching;
  /** Where the shown messages are in `messages`, first to last. */
  shown: readonly number[];
  /** By shown message: its place among its versions, null when it has none. */
  versions: readonly (Version | null)[];
  /** Results already sent, by tool call id. */
  toolResults: Readonly<Record<string, string>>;
  /** The answer whose tool calls may still get results (see `answerAwaitingTools`). */
  awaitingTools: string | null;
}

/** Whether two lists hold the same messages in the same tree, whatever their answers' content. */
function sameShape(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (x.id !== y.id || x.parentId !== y.parentId || x.role !== y.role) return false;
    if (x.role === 'tool' && y.role === 'tool' && x.content !== y.content) return false;
  }
  return true;
}

function sameChoices(a: Record<string, string> = {}, b: Record<string, string> = {}): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The answer whose tool calls may still get results: the last message that is not a tool result, when
 * it is an answer. Results for any older answer would land far from their call.
 */
function answerAwaitingTools(messages: readonly ChatMessage[]): string | null {
  const last = messages.findLast((m) => m.role !== 'tool');
  return last?.role === 'assistant' ? last.id : null;
}

/** `previous` when `conversation` has its shape, else the layout derived anew. */
export function branchLayout(conversation: Branching, previous: BranchLayout | null): BranchLayout {
  if (
    previous &&
    sameShape(previous.from.messages, conversation.messages) &&
    sameChoices(previous.from.selected, conversation.selected)
  )
    return previous;
  const branch = shownBranch(conversation);
  const index = new Map(conversation.messages.map((m, i) => [m.id, i]));
  const toolResults: Record<string, string> = {};
  for (const m of branch) if (m.role === 'tool') toolResults[m.toolCallId] = m.content;
  return {
    from: conversation,
    shown: branch.map((m) => index.get(m.id)!),
    versions: branch.map((m) => {
      const version = versionOf(conversation, m.id);
      return version.count > 1 ? version : null;
    }),
    toolResults,
    awaitingTools: answerAwaitingTools(branch),
  };
}

/** The messages `layout` shows, as they are now in `conversation`. */
export function shownMessages(layout: BranchLayout, conversation: Branching): ChatMessage[] {
  return layout.shown.map((i) => conversation.messages[i]!);
}

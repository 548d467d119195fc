import type { TurnRequest } from '../conversation.ts';
import type { Protocol } from '../turn.ts';

/**
 * Prompt caching, when the conversation's "Cache the conversation" is on (docs/protocols.md §8): each
 * protocol's own way of asking, added to a body its `request.ts` built without it.
 */

/** The field each protocol asks for caching with (shown by the switch). */
export const promptCacheField: Readonly<Record<Protocol, string>> = {
  chat: 'prompt_cache_key',
  responses: 'prompt_cache_key',
  messages: 'cache_control',
};

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;

/** FNV-1a, 64 bits, over UTF-8, as 16 hex digits: stable everywhere, and the id cannot be read back from it. */
function hash64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK;
  return hash.toString(16).padStart(16, '0');
}

/**
 * Chat Completions and Responses: the same `prompt_cache_key` for every turn of a conversation, so OpenAI
 * routes them to the machine that holds its prefix.
 */
export function promptCacheKey(request: Pick<TurnRequest, 'cache' | 'conversationId'>): {
  prompt_cache_key?: string;
} {
  if (!request.cache || request.conversationId === undefined) return {};
  return { prompt_cache_key: `hopbase-chat-${hash64(request.conversationId)}` };
}

type Block = Record<string, unknown>;

/** The parts of a Messages body that may carry breakpoints. */
interface MessagesParts {
  system?: string | Block[];
  tools?: Block[];
  messages: { role: 'user' | 'assistant'; content: Block[] }[];
}

const ephemeral = { type: 'ephemeral' } as const;

const marked = (block: Block): Block => ({ ...block, cache_control: ephemeral });

/** `blocks` with their last one marked. */
const markedLast = (blocks: Block[]): Block[] => [...blocks.slice(0, -1), marked(blocks.at(-1)!)];

/**
 * Anthropic Messages: `cache_control` breakpoints on the last tool, the system prompt (as a block) and the
 * last block of the last user turn, where this turn's prefix is written; and of the user turn before it,
 * where the previous turn's was, so a tool loop longer than the API's 20-block lookback still finds it.
 * Four at most, the API's limit. The fields returned replace the body's own.
 */
export function messagesCacheFields(
  body: MessagesParts,
  request: Pick<TurnRequest, 'cache'>,
): Partial<MessagesParts> {
  if (!request.cache) return {};
  const { tools, system } = body;
  const messages = [...body.messages];
  let turns = 0;
  for (let i = messages.length - 1; i >= 0 && turns < 2; i--) {
    const m = messages[i]!;
    // Not on an empty text block: the API refuses a breakpoint there.
    const at = m.role === 'user' ? m.content.findLastIndex((b) => b.type !== 'text' || b.text !== '') : -1;
    if (at < 0) continue;
    messages[i] = { ...m, content: m.content.map((b, j) => (j === at ? marked(b) : b)) };
    turns++;
  }
  return {
    ...(tools?.length && { tools: markedLast(tools) }),
    ...(typeof system === 'string'
      ? system !== '' && { system: [marked({ type: 'text', text: system })] }
      : system?.length && { system: markedLast(system) }),
    messages,
  };
}

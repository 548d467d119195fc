import {
  type ConversationMessage,
  parseToolArguments,
  type TurnRequest,
  userParts,
  withAnsweredToolCalls,
} from '../../conversation.ts';
import { type ParameterSupport, parameterFields } from '../../parameters.ts';
import { messagesToolFields } from '../../tools/toolFields.ts';
import type { BuiltBody } from '../adapter.ts';
import { messagesCacheFields } from '../promptCache.ts';
import { messagesThinking, thinkingBlocksOf } from './reasoning.ts';

/**
 * Anthropic requires `max_tokens`; this is what we send when the person set no limit (on top of the
 * thinking budget when thinking, since `max_tokens` counts the thinking too and must exceed the budget).
 */
const DEFAULT_MAX_TOKENS = 4096;

/**
 * Anthropic's sampling parameters: `temperature` only up to 1, stop sequences without a documented count;
 * no seed or penalties. (Thinking narrows `temperature` and `top_p` further: `messagesRequestProblem`.)
 */
export const messagesParameters: ParameterSupport = {
  numbers: {
    temperature: { field: 'temperature', min: 0, max: 1 },
    topP: { field: 'top_p', min: 0, max: 1 },
    maxOutputTokens: { field: 'max_tokens', min: 1, whole: true },
  },
  stop: { field: 'stop_sequences' },
};

type Block = Record<string, unknown>;

/** The files first (images before text, as Anthropic advises), then what was typed. */
function userBlocks(m: Extract<ConversationMessage, { role: 'user' }>): Block[] {
  return userParts<Block>(m, {
    image: (a) => ({ type: 'image', source: { type: 'base64', media_type: a.mimeType, data: a.data } }),
    text: (text) => ({ type: 'text', text }),
  });
}

export function buildMessagesBody(request: TurnRequest): BuiltBody {
  // Roles must alternate and tool results ride in a user turn: consecutive same-role content is merged.
  const messages: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const m of withAnsweredToolCalls(request.messages)) {
    if (m.role === 'user') push('user', userBlocks(m));
    else if (m.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: m.toolCallId,
          content: m.content,
          ...(m.isError && { is_error: true }),
        },
      ]);
    } else {
      const content: Block[] = [
        ...(m.text ? [{ type: 'text', text: m.text }] : []),
        ...(m.toolCalls ?? []).map((call) => ({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          input: parseToolArguments(call.arguments),
        })),
      ];
      // Thinking blocks go back unchanged, signature included, at the start of their turn: a tool loop's
      // follow-up is refused without them (docs/protocols.md §6.1). Never alone: a turn of only thinking is not valid.
      push('assistant', content.length > 0 ? [...thinkingBlocksOf(m), ...content] : []);
    }
  }
  const thinking = messagesThinking(request);
  const budget = thinking !== null && thinking !== 'paused' ? thinking.budgetTokens : null;
  const body = {
    model: request.model,
    max_tokens:
      request.maxOutputTokens ?? (budget === null ? DEFAULT_MAX_TOKENS : budget + DEFAULT_MAX_TOKENS),
    stream: true,
    ...(request.system && { system: request.system }),
    messages,
    ...messagesToolFields(request),
    ...(budget !== null && { thinking: { type: 'enabled', budget_tokens: budget } }),
    ...parameterFields(messagesParameters, request),
  };
  return { body: { ...body, ...messagesCacheFields(body, request) }, reasoningPaused: thinking === 'paused' };
}

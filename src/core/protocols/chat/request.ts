import {
  type ConversationMessage,
  imageDataUrl,
  type TurnRequest,
  userParts,
  withAnsweredToolCalls,
} from '../../conversation.ts';
import { type ParameterSupport, parameterFields } from '../../parameters.ts';
import { chatToolFields } from '../../tools/toolFields.ts';
import { promptCacheKey } from '../promptCache.ts';

/** Chat Completions' sampling parameters and their documented ranges (the SDK's `ChatCompletionCreateParams`). */
export const chatParameters: ParameterSupport = {
  numbers: {
    temperature: { field: 'temperature', min: 0, max: 2 },
    topP: { field: 'top_p', min: 0, max: 1 },
    // Not `max_tokens`: deprecated, and refused by reasoning models.
    maxOutputTokens: { field: 'max_completion_tokens', min: 1, whole: true },
    seed: { field: 'seed', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, whole: true },
    presencePenalty: { field: 'presence_penalty', min: -2, max: 2 },
    frequencyPenalty: { field: 'frequency_penalty', min: -2, max: 2 },
  },
  stop: { field: 'stop', max: 4 },
};

type UserMessage = Extract<ConversationMessage, { role: 'user' }>;

/** Plain text stays a string; with attachments, content parts: the files first, then what was typed. */
function userContent(m: UserMessage): string | Record<string, unknown>[] {
  if (!m.attachments?.length) return m.text;
  return userParts<Record<string, unknown>>(m, {
    image: (a) => ({ type: 'image_url', image_url: { url: imageDataUrl(a) } }),
    text: (text) => ({ type: 'text', text }),
  });
}

/**
 * Chat Completions has no reasoning state: reasoning text (`reasoning_content`, `reasoning`) is shown but
 * never sent back, since DeepSeek-style backends refuse it in input messages (docs/protocols.md §4.2).
 */
export function buildChatBody(request: TurnRequest): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const m of withAnsweredToolCalls(request.messages)) {
    if (m.role === 'user') messages.push({ role: 'user', content: userContent(m) });
    else if (m.role === 'tool')
      messages.push({ role: 'tool', tool_call_id: m.toolCallId, content: m.content });
    else if (m.toolCalls?.length) {
      messages.push({
        role: 'assistant',
        content: m.text || null,
        tool_calls: m.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments || '{}' },
        })),
      });
    } else if (m.text) messages.push({ role: 'assistant', content: m.text });
  }
  return {
    model: request.model,
    stream: true,
    // Without it Chat streams no usage at all.
    stream_options: { include_usage: true },
    messages,
    ...chatToolFields(request),
    ...parameterFields(chatParameters, request),
    ...promptCacheKey(request),
    ...(request.reasoning && { reasoning_effort: request.reasoning.effort }),
  };
}

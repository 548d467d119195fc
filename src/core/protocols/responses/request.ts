import {
  type ConversationMessage,
  imageDataUrl,
  type TurnRequest,
  userParts,
  withAnsweredToolCalls,
} from '../../conversation.ts';
import { type ParameterSupport, parameterFields } from '../../parameters.ts';
import { responsesToolFields } from '../../tools/toolFields.ts';
import { promptCacheKey } from '../promptCache.ts';
import { reasoningItemsOf } from './reasoning.ts';

/**
 * Responses' sampling parameters (the SDK's `ResponseCreateParams`): no stop sequences, seed or penalties;
 * the API refuses `max_output_tokens` under 16.
 */
export const responsesParameters: ParameterSupport = {
  numbers: {
    temperature: { field: 'temperature', min: 0, max: 2 },
    topP: { field: 'top_p', min: 0, max: 1 },
    maxOutputTokens: { field: 'max_output_tokens', min: 16, whole: true },
  },
};

type UserMessage = Extract<ConversationMessage, { role: 'user' }>;

/** Plain text stays a string; with attachments, input parts: the files first, then what was typed. */
function userContent(m: UserMessage): string | Record<string, unknown>[] {
  if (!m.attachments?.length) return m.text;
  return userParts<Record<string, unknown>>(m, {
    image: (a) => ({ type: 'input_image', image_url: imageDataUrl(a), detail: 'auto' }),
    text: (text) => ({ type: 'input_text', text }),
  });
}

export function buildResponsesBody(request: TurnRequest): Record<string, unknown> {
  const input: Record<string, unknown>[] = [];
  for (const m of withAnsweredToolCalls(request.messages)) {
    if (m.role === 'user') input.push({ role: 'user', content: userContent(m) });
    else if (m.role === 'tool')
      input.push({ type: 'function_call_output', call_id: m.toolCallId, output: m.content });
    else {
      const items: Record<string, unknown>[] = [];
      if (m.text) items.push({ role: 'assistant', content: m.text });
      for (const call of m.toolCalls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: call.arguments || '{}',
        });
      }
      // The answer's reasoning items go back first, as they came, before the items that followed them; a
      // reasoning item with nothing after it is refused, so an answer left empty sends none.
      if (items.length > 0) input.push(...reasoningItemsOf(m), ...items);
    }
  }
  return {
    model: request.model,
    stream: true,
    // Stateless: the whole history is sent every time, so a retry is always the same request.
    store: false,
    ...(request.system && { instructions: request.system }),
    input,
    ...responsesToolFields(request),
    ...parameterFields(responsesParameters, request),
    ...promptCacheKey(request),
    // Without `summary` no reasoning text streams at all; without `include`, a stateless request gets no
    // encrypted reasoning to send back between tool steps (docs/protocols.md §5.1).
    ...(request.reasoning && {
      reasoning: { effort: request.reasoning.effort, summary: 'auto' },
      include: ['reasoning.encrypted_content'],
    }),
  };
}

/**
 * Test-only: the event objects the template readers stand for, rebuilt from a reader's fields after a match,
 * so that tests can hold them against `JSON.parse` of the same data. `readTurn` never builds them: its
 * steppers read the fields directly.
 */
import { ChatFastDecoder } from '../protocols/chat/fastDecode.ts';
import { MessagesFastDecoder } from '../protocols/messages/fastDecode.ts';
import { ResponsesFastDecoder } from '../protocols/responses/fastDecode.ts';
import type { Protocol } from '../turn.ts';

/** A data string to the event its template stands for; undefined when it is not a template. */
export type FastReader = (data: string) => object | undefined;

function chatChunk(decoder: ChatFastDecoder, data: string): object | undefined {
  if (decoder.match(data) === null) return undefined;
  const value = decoder.value;
  let delta: object;
  switch (decoder.template) {
    case 'content':
      delta = { content: value };
      break;
    case 'content+nullReasoningContent':
      delta = { content: value, reasoning_content: null };
      break;
    case 'nullContent+reasoningContent':
      delta = { content: null, reasoning_content: value };
      break;
    case 'reasoningContent':
      delta = { reasoning_content: value };
      break;
    case 'reasoning':
      delta = { reasoning: value };
      break;
    case 'toolArgs':
      delta = { tool_calls: [{ index: decoder.toolIndex, function: { arguments: value } }] };
      break;
    case 'finish':
      delta = {};
  }
  const finish_reason = decoder.template === 'finish' ? value : null;
  const chunk: Record<string, unknown> = Object.assign({}, decoder.fields);
  chunk.choices = [{ index: decoder.choiceIndex, delta, logprobs: null, finish_reason }];
  if (decoder.usageNull) chunk.usage = null;
  if (decoder.obfuscation !== undefined) chunk.obfuscation = decoder.obfuscation;
  return chunk;
}

export function responsesEvent(decoder: ResponsesFastDecoder, data: string): object | undefined {
  const kind = decoder.match(data);
  if (kind === null) return undefined;
  const { sequenceNumber: sequence_number, itemId: item_id, outputIndex: output_index, part } = decoder;
  const delta = decoder.value;
  const event: Record<string, unknown> =
    kind === 'text'
      ? {
          type: 'response.output_text.delta',
          sequence_number,
          item_id,
          output_index,
          content_index: part,
          delta,
        }
      : kind === 'reasoning'
        ? {
            type: 'response.reasoning_summary_text.delta',
            sequence_number,
            item_id,
            output_index,
            summary_index: part,
            delta,
          }
        : { type: 'response.function_call_arguments.delta', sequence_number, item_id, output_index, delta };
  if (decoder.logprobs) event.logprobs = [];
  if (decoder.obfuscation !== undefined) event.obfuscation = decoder.obfuscation;
  return event;
}

function messagesEvent(decoder: MessagesFastDecoder, data: string): object | undefined {
  const kind = decoder.match(data);
  if (kind === null) return undefined;
  if (kind === 'ping') return { type: 'ping' };
  if (kind === 'blockStop') return { type: 'content_block_stop', index: decoder.index };
  if (kind === 'messageStop') return { type: 'message_stop' };
  const value = decoder.value;
  const delta =
    kind === 'text'
      ? { type: 'text_delta', text: value }
      : kind === 'toolArgs'
        ? { type: 'input_json_delta', partial_json: value }
        : { type: 'thinking_delta', thinking: value };
  return { type: 'content_block_delta', index: decoder.index, delta };
}

/** A reader per protocol, each over a decoder of its own (as one stream has). */
export function fastReaders(): Record<Protocol, FastReader> {
  const chat = new ChatFastDecoder();
  const responses = new ResponsesFastDecoder();
  const messages = new MessagesFastDecoder();
  return {
    chat: (data) => chatChunk(chat, data),
    responses: (data) => responsesEvent(responses, data),
    messages: (data) => messagesEvent(messages, data),
  };
}

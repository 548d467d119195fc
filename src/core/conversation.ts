import type { SamplingParameters } from './parameters.ts';
import type { ReasoningOptions, ReasoningState } from './reasoning.ts';
import { type OutputSchema, structuredOutputTool, type ToolChoice } from './tools/toolFields.ts';
import type { ToolCall } from './turn.ts';

/** A conversation in neutral form: what every protocol's request builder starts from. */

export interface ToolDefinition {
  name: string;
  description?: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

/**
 * A file sent with a user message, as every protocol's builder needs it: an image as its bytes in base64
 * with their media type, a text or code file as its text with its name.
 */
export type AttachmentContent =
  | { kind: 'image'; mimeType: string; data: string }
  | { kind: 'text'; name: string; text: string };

export type ConversationMessage =
  | { role: 'user'; text: string; attachments?: AttachmentContent[] }
  | {
      role: 'assistant';
      text: string;
      toolCalls?: ToolCall[];
      /**
       * The answer's reasoning state (thinking blocks, reasoning items), as the provider gave it: each
       * request builder sends back only its own protocol's, unchanged. Reasoning text is never here.
       */
      reasoningState?: ReasoningState[];
    }
  | { role: 'tool'; toolCallId: string; name?: string; content: string; isError?: boolean };

/** What one request asks: the sampling parameters each protocol maps to its own fields (`request.ts`). */
export interface TurnRequest extends SamplingParameters {
  /** The conversation this turn belongs to: what a prompt cache key is made from. */
  conversationId?: string;
  model: string;
  system?: string;
  messages: ConversationMessage[];
  tools?: ToolDefinition[];
  /** Absent: the protocol's default (the model decides). */
  toolChoice?: ToolChoice;
  /** The answer must be JSON matching this schema (structured output). */
  outputSchema?: OutputSchema;
  /** Ask the model to reason (absent: no reasoning parameter is sent). */
  reasoning?: ReasoningOptions;
}

export interface HttpRequestSpec {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Reasoning was asked for, but this request goes without it (what its builder had to leave out). */
  reasoningPaused: boolean;
}

/**
 * Every protocol rejects a tool call that has no result after it. A call the person never answered
 * (they typed a new message instead) is dropped from the history rather than failing the request. A
 * structured answer made as Anthropic's forced `structured_output` call is never answered either: its
 * arguments are the answer, and they stay in the history as its text, for any protocol.
 */
export function withAnsweredToolCalls(messages: ConversationMessage[]): ConversationMessage[] {
  const answered = new Set<string>();
  for (const m of messages) if (m.role === 'tool') answered.add(m.toolCallId);
  return messages.map((m) => {
    if (m.role !== 'assistant' || !m.toolCalls?.length) return m;
    const toolCalls = m.toolCalls.filter((call) => answered.has(call.id));
    if (toolCalls.length === m.toolCalls.length) return m;
    const structured = m.toolCalls
      .filter((call) => call.name === structuredOutputTool && !answered.has(call.id))
      .map((call) => call.arguments);
    const text = [m.text, ...structured].filter((part) => part !== '').join('\n\n');
    return { ...m, text, toolCalls };
  });
}

/** An image as a data URL, the form both OpenAI protocols take it in. */
export function imageDataUrl(image: Extract<AttachmentContent, { kind: 'image' }>): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/**
 * A text file as the model reads it, in every protocol: its name on a line, then its text in a code fence
 * longer than any run of backticks inside, so the file's own fences cannot close it early.
 */
export function textFileBlock(name: string, text: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `File: ${name}\n${fence}\n${text}\n${fence}`;
}

/** How one protocol writes a user message's parts: an image, and a text (what was typed, or a file's block). */
interface UserPartWriter<P> {
  image(image: Extract<AttachmentContent, { kind: 'image' }>): P;
  text(text: string): P;
}

/** A user message as a protocol's parts, in every protocol's order: the files first, then what was typed. */
export function userParts<P>(
  message: Extract<ConversationMessage, { role: 'user' }>,
  write: UserPartWriter<P>,
): P[] {
  return [
    ...(message.attachments ?? []).map((a) =>
      a.kind === 'image' ? write.image(a) : write.text(textFileBlock(a.name, a.text)),
    ),
    ...(message.text ? [write.text(message.text)] : []),
  ];
}

/** The arguments as an object; null when the text is not a JSON object (cut off, or not an object at all). */
function argumentsObject(text: string): Record<string, unknown> | null {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Tool arguments travel as JSON text in OpenAI's protocols and as an object in Anthropic's. */
export function parseToolArguments(text: string): Record<string, unknown> {
  return argumentsObject(text) ?? {};
}

/** Whether assembled arguments make a whole call (no arguments at all mean `{}`): a cut-off call does not. */
export function argumentsComplete(text: string): boolean {
  return argumentsObject(text) !== null;
}

import {
  adapters,
  adviseFailure,
  type FailureAdvice,
  type FinishNotice,
  finishNotice,
  type Turn,
} from '../core/index.ts';
import { formatSize } from './attachmentFiles.ts';
import { shownBranch, versionOf } from './branches.ts';
import { conversationUsage, currentAttempt } from './conversationStore.ts';
import { scrub } from './traceExport.ts';
import type {
  AssistantMessage,
  Attempt,
  Conversation,
  SentRequest,
  ToolResultMessage,
  UserMessage,
} from './types.ts';

/**
 * One conversation as files a person keeps: Markdown to read (every message and answer as a section, with
 * reasoning, tool calls and their results, and failures marked) and JSON (the conversation record itself,
 * versioned). Neither ever holds a credential: requests are stored without them, credential headers are
 * redacted again here, a URL's user and password are dropped, and the current API key is scrubbed from the
 * text as a last guard.
 */

export const conversationFormat = 'hopbase-chat-conversation';

export interface ConversationDocument {
  format: typeof conversationFormat;
  version: 1;
  exportedAt: string;
  conversation: Conversation;
}

const credentialHeaders = /^(authorization|proxy-authorization|x-api-key|api-key|cookie)$/i;

function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      credentialHeaders.test(name) ? '[redacted]' : value,
    ]),
  );
}

/** A URL without its user and password (`https://user:pass@host/v1` → `https://host/v1`). */
export function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
}

function redactRequest(request: SentRequest): SentRequest {
  return { ...request, url: withoutUserInfo(request.url), headers: redactHeaders(request.headers) };
}

export function redactAttempt(attempt: Attempt): Attempt {
  return {
    ...attempt,
    request: redactRequest(attempt.request),
    sentHeaders: redactHeaders(attempt.sentHeaders),
  };
}

/** The conversation record as a versioned JSON document. */
export function exportConversationJson(conversation: Conversation, apiKey: string, now: number): string {
  const document: ConversationDocument = {
    format: conversationFormat,
    version: 1,
    exportedAt: new Date(now).toISOString(),
    conversation: {
      ...conversation,
      messages: conversation.messages.map((m) =>
        m.role === 'assistant' ? { ...m, attempts: m.attempts.map(redactAttempt) } : m,
      ),
    },
  };
  return scrub(JSON.stringify(document, null, 2), apiKey);
}

// ---------------------------------------------------------------------------------------------------------
// Markdown

/** `2025-10-02 20:26 UTC`: the same whatever the reader's time zone. */
function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A fenced code block whose fence is longer than any backtick run inside. */
function codeBlock(content: string, language = ''): string {
  const longest = (content.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 2);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${content.replace(/\n$/, '')}\n${fence}`;
}

/** `text` as a quote block (every line prefixed, blank lines kept inside the quote). */
function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** JSON text pretty-printed when it parses, as is otherwise. */
function prettyJson(text: string): { text: string; valid: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), valid: true };
  } catch {
    return { text, valid: false };
  }
}

const statusWords: Record<Turn['status'], string> = {
  complete: 'complete',
  streaming: 'still streaming when exported',
  error: 'failed',
  interrupted: 'interrupted',
  aborted: 'stopped',
};

function usageLine(turn: Turn): string | null {
  const usage = turn.usage;
  if (!usage) return null;
  const extra = [
    usage.reasoningTokens ? `${usage.reasoningTokens.toLocaleString('en-US')} reasoning` : '',
    usage.cachedTokens ? `${usage.cachedTokens.toLocaleString('en-US')} cached` : '',
  ].filter(Boolean);
  return `Usage: ${usage.inputTokens.toLocaleString('en-US')} in · ${usage.outputTokens.toLocaleString('en-US')} out · ${usage.totalTokens.toLocaleString('en-US')} total${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

/** The titles of what went wrong, in the words of the UI's catalogs: the core names them by code. */
export interface ExportExplanations {
  failure(advice: FailureAdvice): string;
  finish(notice: FinishNotice): string;
}

/** The warning at the top of an answer that is not whole: a failure, an interruption, Stop, or a cut ending. */
function failureNote(attempt: Attempt, explain: ExportExplanations): string | null {
  const { turn, httpError } = attempt;
  if (httpError) {
    const advice = adviseFailure(turn, httpError);
    return `**Failed** before any output: ${advice ? explain.failure(advice) : `HTTP ${httpError.status}`} (HTTP ${httpError.status}, \`${httpError.code}\`: ${httpError.message})`;
  }
  if (turn.status === 'streaming')
    return '**Incomplete**: the answer was still streaming when this was exported.';
  if (turn.status !== 'complete') {
    const label = turn.status === 'error' ? '**Failed**' : '**Incomplete**';
    const advice = adviseFailure(turn, null);
    const detail = turn.error ? ` (\`${turn.error.code}\`: ${turn.error.message})` : '';
    return `${label}, ${statusWords[turn.status]}: ${advice ? explain.failure(advice) : 'the answer did not finish'}${detail}. What arrived before is kept below.`;
  }
  const notice = finishNotice(turn);
  return notice ? `**Incomplete**: ${explain.finish(notice)}.` : null;
}

function earlierAttempts(message: AssistantMessage): string | null {
  const earlier = message.attempts.slice(0, -1);
  if (earlier.length === 0) return null;
  const total = message.attempts.length;
  const lines = earlier.map((a, i) => {
    const tokens = a.turn.usage?.outputTokens;
    const error = a.httpError
      ? `HTTP ${a.httpError.status} ${a.httpError.code}`
      : a.turn.error
        ? `${a.turn.error.code}: ${a.turn.error.message}`
        : '';
    return `- Attempt ${i + 1} of ${total}, ${formatTime(a.startedAt)}: ${a.httpError ? 'failed' : statusWords[a.turn.status]}${tokens ? ` after ${tokens.toLocaleString('en-US')} output tokens` : ''}${error ? ` (${error})` : ''}`;
  });
  return [`Shown: attempt ${total} of ${total}. Earlier attempts:`, '', ...lines].join('\n');
}

function answerSection(message: AssistantMessage, explain: ExportExplanations, version: string): string {
  const attempt = currentAttempt(message);
  const when = formatTime(attempt?.startedAt ?? message.createdAt);
  const source = message.source.kind === 'replay' ? ` · replayed from \`${message.source.file}\`` : '';
  const blocks = [
    `## Answer · ${message.model} · ${adapters[message.protocol].label} · ${when}${source}${version}`,
  ];
  if (!attempt) {
    blocks.push('_No attempt was made._');
    return blocks.join('\n\n');
  }
  const { turn } = attempt;
  const note = failureNote(attempt, explain);
  if (note) blocks.push(quote(`⚠️ ${note}`));
  if (turn.reasoning.trim()) blocks.push(quote(`**Reasoning**\n\n${turn.reasoning.trim()}`));
  if (turn.text.trim()) blocks.push(turn.text.trim());
  if (turn.refusal.trim()) blocks.push(quote(`**Refusal**: ${turn.refusal.trim()}`));
  for (const call of turn.toolCalls) {
    const args = prettyJson(call.arguments || '{}');
    blocks.push(
      `### Tool call: ${call.name} (\`${call.id}\`)`,
      args.valid ? codeBlock(args.text, 'json') : `Arguments (incomplete):\n\n${codeBlock(args.text)}`,
    );
  }
  if (!turn.text.trim() && !turn.reasoning.trim() && !turn.refusal.trim() && turn.toolCalls.length === 0) {
    blocks.push('_No output._');
  }
  const usage = usageLine(turn);
  if (usage) blocks.push(`_${usage}_`);
  const earlier = earlierAttempts(message);
  if (earlier) blocks.push(earlier);
  return blocks.join('\n\n');
}

/** ` · version 2 of 3` for a message with other versions, else nothing. */
function versionLabel(conversation: Conversation, messageId: string): string {
  const { position, count } = versionOf(conversation, messageId);
  return count > 1 ? ` · version ${position} of ${count}` : '';
}

/** `_Attached: `cat.png` (image/png, 12 kB), `notes.md` (text, 2 kB)_`: the files by name (their bytes stay out). */
function attachedLine(message: UserMessage): string {
  const files = (message.attachments ?? []).map(
    (a) => `\`${a.name}\` (${a.kind === 'image' ? a.mimeType : 'text'}, ${formatSize(a.size)})`,
  );
  return files.length ? `_Attached: ${files.join(', ')}_` : '';
}

function toolResultSection(message: ToolResultMessage): string {
  const result = prettyJson(message.content);
  return [
    `## Tool result · ${message.name} · ${formatTime(message.createdAt)}`,
    `Result of \`${message.toolCallId}\`:`,
    result.valid ? codeBlock(result.text, 'json') : codeBlock(message.content),
  ].join('\n\n');
}

/**
 * The conversation as a Markdown document: its title as the heading, then each user message and answer as
 * a section (who, model and protocol, time). Reasoning is quoted, tool calls show their arguments as JSON
 * code blocks and their results follow, and an answer that failed or is incomplete says so at its top.
 * Of a conversation with versions, the branch shown, each message saying which version it is; the tokens
 * billed count every version.
 */
export function exportConversationMarkdown(
  conversation: Conversation,
  apiKey: string,
  now: number,
  explain: ExportExplanations,
): string {
  const usage = conversationUsage(conversation);
  const shown = shownBranch(conversation);
  const others = conversation.messages.length - shown.length;
  const sections = [
    `# ${conversation.title.replace(/\s+/g, ' ').trim() || 'Untitled conversation'}`,
    `_Exported from HopBase Chat on ${formatTime(now)} · started ${formatTime(conversation.createdAt)} · ${shown.length} messages · ${usage.total.toLocaleString('en-US')} tokens billed (every attempt)${others > 0 ? ` · ${others} messages of other versions left out` : ''}_`,
  ];
  if (conversation.systemPrompt?.trim())
    sections.push(`## System prompt\n\n${quote(conversation.systemPrompt)}`);
  for (const message of shown) {
    const version = versionLabel(conversation, message.id);
    if (message.role === 'user') {
      const body = [message.text.trim(), attachedLine(message)].filter(Boolean).join('\n\n');
      sections.push(`## You · ${formatTime(message.createdAt)}${version}\n\n${body || '_(empty)_'}`);
    } else if (message.role === 'assistant') sections.push(answerSection(message, explain, version));
    else sections.push(toolResultSection(message));
  }
  return scrub(`${sections.join('\n\n')}\n`, apiKey);
}

/** `holiday-plans-2025-10-02.md`: the title in letters and digits (any script), and the export's date. */
export function conversationFileName(
  conversation: Conversation,
  extension: 'md' | 'json',
  now: number,
): string {
  const slug = conversation.title
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // Sixty characters, never half of a surrogate pair.
  const short = Array.from(slug).slice(0, 60).join('').replace(/-+$/, '') || 'conversation';
  return `hopbase-${short}-${new Date(now).toISOString().slice(0, 10)}.${extension}`;
}

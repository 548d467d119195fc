import {
  adapters,
  adviseFailure,
  type FailureAdvice,
  type FinishNotice,
  finishNotice,
  type Turn,
} from '../../core/index.ts';
import { shownBranch, versionOf } from '../domain/branches.ts';
import { type ConversationName, conversationName } from '../domain/conversationTitle.ts';
import type {
  AssistantMessage,
  Attempt,
  Conversation,
  SentRequest,
  ToolResultMessage,
  UserMessage,
} from '../domain/types.ts';
import { conversationUsage, currentAttempt } from '../stores/conversationStore.ts';
import { scrub } from './traceExport.ts';

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

/** The phrases of the Markdown document, each worded by the UI in its language (`markdownExport.*`). */
export type ExportPhrase =
  | 'untitled'
  | 'replayTitle'
  | 'exported'
  | 'systemPrompt'
  | 'you'
  | 'empty'
  | 'attached'
  | 'textFile'
  | 'version'
  | 'answer'
  | 'replayedFrom'
  | 'noAttempt'
  | 'failedBeforeOutput'
  | 'stillStreaming'
  | 'unfinished'
  | 'notFinished'
  | 'cutShort'
  | 'reasoning'
  | 'refusal'
  | 'toolCall'
  | 'argumentsIncomplete'
  | 'noOutput'
  | 'usage'
  | 'shownAttempt'
  | 'earlierAttempt'
  | 'toolResult'
  | 'resultOf';

/**
 * The words of the document in the UI's language: the titles of what went wrong (the core names them by
 * code) and its phrases, with their values (counts as numbers, formatted by the language).
 */
export interface ExportExplanations {
  failure(advice: FailureAdvice): string;
  finish(notice: FinishNotice): string;
  // A property, not a method: checked strictly, so the UI must word every phrase named here.
  phrase: (name: ExportPhrase, values?: Readonly<Record<string, string | number>>) => string;
  fileSize(bytes: number): string;
  list(items: readonly string[]): string;
}

/** `` `id` ``: an identifier as inline code. */
const code = (text: string) => `\`${text}\``;

function usageLine(turn: Turn, { phrase }: ExportExplanations): string | null {
  const usage = turn.usage;
  if (!usage) return null;
  return phrase('usage', {
    input: usage.inputTokens,
    output: usage.outputTokens,
    total: usage.totalTokens,
    reasoning: usage.reasoningTokens ?? 0,
    cached: usage.cachedTokens ?? 0,
  });
}

/** The warning at the top of an answer that is not whole: a failure, an interruption, Stop, or a cut ending. */
function failureNote(attempt: Attempt, explain: ExportExplanations): string | null {
  const { turn, httpError } = attempt;
  const { phrase } = explain;
  if (httpError) {
    const advice = adviseFailure(turn, httpError);
    return phrase('failedBeforeOutput', {
      title: advice ? explain.failure(advice) : `HTTP ${httpError.status}`,
      details: `HTTP ${httpError.status}, ${code(httpError.code)}: ${httpError.message}`,
    });
  }
  if (turn.status === 'streaming') return phrase('stillStreaming');
  if (turn.status !== 'complete') {
    const advice = adviseFailure(turn, null);
    return phrase('unfinished', {
      status: turn.status,
      title: advice ? explain.failure(advice) : phrase('notFinished'),
      withDetails: turn.error ? 'yes' : 'no',
      details: turn.error ? `${code(turn.error.code)}: ${turn.error.message}` : '',
    });
  }
  const notice = finishNotice(turn);
  return notice ? phrase('cutShort', { title: explain.finish(notice) }) : null;
}

function earlierAttempts(message: AssistantMessage, { phrase }: ExportExplanations): string | null {
  const earlier = message.attempts.slice(0, -1);
  if (earlier.length === 0) return null;
  const total = message.attempts.length;
  const lines = earlier.map((a, i) => {
    const error = a.httpError
      ? `HTTP ${a.httpError.status} ${a.httpError.code}`
      : a.turn.error
        ? `${a.turn.error.code}: ${a.turn.error.message}`
        : '';
    const line = phrase('earlierAttempt', {
      n: i + 1,
      total,
      time: formatTime(a.startedAt),
      status: a.httpError ? 'error' : a.turn.status,
      tokens: a.turn.usage?.outputTokens ?? 0,
      withError: error ? 'yes' : 'no',
      error,
    });
    return `- ${line}`;
  });
  return [phrase('shownAttempt', { total }), '', ...lines].join('\n');
}

/** A section's heading: its fields (who, model, time, version) joined by ` · `. */
const heading = (level: string, fields: readonly string[]) =>
  `${level} ${fields.filter(Boolean).join(' · ')}`;

function answerSection(message: AssistantMessage, explain: ExportExplanations, version: string): string {
  const { phrase } = explain;
  const attempt = currentAttempt(message);
  const when = formatTime(attempt?.startedAt ?? message.createdAt);
  const source =
    message.source.kind === 'replay' ? phrase('replayedFrom', { file: code(message.source.file) }) : '';
  const blocks = [
    heading('##', [phrase('answer'), message.model, adapters[message.protocol].label, when, source, version]),
  ];
  if (!attempt) {
    blocks.push(`_${phrase('noAttempt')}_`);
    return blocks.join('\n\n');
  }
  const { turn } = attempt;
  const note = failureNote(attempt, explain);
  if (note) blocks.push(quote(`⚠️ ${note}`));
  if (turn.reasoning.trim()) blocks.push(quote(`**${phrase('reasoning')}**\n\n${turn.reasoning.trim()}`));
  if (turn.text.trim()) blocks.push(turn.text.trim());
  if (turn.refusal.trim()) blocks.push(quote(phrase('refusal', { text: turn.refusal.trim() })));
  for (const call of turn.toolCalls) {
    const args = prettyJson(call.arguments || '{}');
    blocks.push(
      `### ${phrase('toolCall', { name: call.name, id: code(call.id) })}`,
      args.valid
        ? codeBlock(args.text, 'json')
        : `${phrase('argumentsIncomplete')}\n\n${codeBlock(args.text)}`,
    );
  }
  if (!turn.text.trim() && !turn.reasoning.trim() && !turn.refusal.trim() && turn.toolCalls.length === 0) {
    blocks.push(`_${phrase('noOutput')}_`);
  }
  const usage = usageLine(turn, explain);
  if (usage) blocks.push(`_${usage}_`);
  const earlier = earlierAttempts(message, explain);
  if (earlier) blocks.push(earlier);
  return blocks.join('\n\n');
}

/** `version 2 of 3` for a message with other versions, else nothing. */
function versionLabel(conversation: Conversation, messageId: string, { phrase }: ExportExplanations): string {
  const { position, count } = versionOf(conversation, messageId);
  return count > 1 ? phrase('version', { position, count }) : '';
}

/** `_Attached: `cat.png` (image/png, 12 kB) and `notes.md` (text, 2 kB)_`: the files by name (their bytes stay out). */
function attachedLine(message: UserMessage, { phrase, fileSize, list }: ExportExplanations): string {
  const files = (message.attachments ?? []).map(
    (a) => `${code(a.name)} (${a.kind === 'image' ? a.mimeType : phrase('textFile')}, ${fileSize(a.size)})`,
  );
  return files.length ? `_${phrase('attached', { files: list(files) })}_` : '';
}

function toolResultSection(message: ToolResultMessage, { phrase }: ExportExplanations): string {
  const result = prettyJson(message.content);
  return [
    heading('##', [phrase('toolResult'), message.name, formatTime(message.createdAt)]),
    phrase('resultOf', { id: code(message.toolCallId) }),
    result.valid ? codeBlock(result.text, 'json') : codeBlock(message.content),
  ].join('\n\n');
}

/** The document's heading: the conversation's title, or what it replays, or untitled, in the UI's words. */
function headingOf(name: ConversationName, phrase: ExportExplanations['phrase']): string {
  if (name.kind === 'titled') return name.title.replace(/\s+/g, ' ');
  return name.kind === 'replay' ? phrase('replayTitle', { file: name.file }) : phrase('untitled');
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
  const { phrase } = explain;
  const exported = phrase('exported', {
    now: formatTime(now),
    started: formatTime(conversation.createdAt),
    messages: shown.length,
    tokens: usage.total,
    others,
  });
  const sections = [`# ${headingOf(conversationName(conversation), phrase)}`, `_${exported}_`];
  if (conversation.systemPrompt?.trim())
    sections.push(`## ${phrase('systemPrompt')}\n\n${quote(conversation.systemPrompt)}`);
  for (const message of shown) {
    const version = versionLabel(conversation, message.id, explain);
    if (message.role === 'user') {
      const body = [message.text.trim(), attachedLine(message, explain)].filter(Boolean).join('\n\n');
      const title = heading('##', [phrase('you'), formatTime(message.createdAt), version]);
      sections.push(`${title}\n\n${body || `_${phrase('empty')}_`}`);
    } else if (message.role === 'assistant') sections.push(answerSection(message, explain, version));
    else sections.push(toolResultSection(message, explain));
  }
  return scrub(`${sections.join('\n\n')}\n`, apiKey);
}

/** `holiday-plans-2025-10-02.md`: the title in letters and digits (any script), and the export's date. */
export function conversationFileName(
  conversation: Conversation,
  extension: 'md' | 'json',
  now: number,
): string {
  const name = conversationName(conversation);
  // A replay is named after its file; an untitled conversation falls back to `conversation` below.
  const slug = (name.kind === 'titled' ? name.title : name.kind === 'replay' ? `replay ${name.file}` : '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  // Sixty characters, never half of a surrogate pair.
  const short = Array.from(slug).slice(0, 60).join('').replace(/-+$/, '') || 'conversation';
  return `hopbase-${short}-${new Date(now).toISOString().slice(0, 10)}.${extension}`;
}

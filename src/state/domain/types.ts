import type {
  HttpError,
  OutputSchema,
  Protocol,
  ReasoningLevel,
  SamplingParameters,
  ToolChoice,
  ToolDefinition,
  Turn,
} from '../../core/index.ts';

/** One SSE item of an attempt as recorded for the inspector: offsets are ms from the request start. */
export interface TraceItem {
  t: number;
  kind: 'event' | 'comment';
  /** Event name (`message` when none was sent); empty for comments. */
  event: string;
  /** Event data, or the comment's text. */
  data: string;
}

/** What came down the wire for one attempt, kept compactly and capped. */
export interface AttemptTrace {
  /** Time to response headers, first output and end, in ms from the request start. */
  headersAt: number | null;
  firstOutputAt: number | null;
  endedAt: number | null;
  bytes: number;
  /** Output events (deltas, new tool calls): the output rate's fallback when no usage was reported. */
  outputEvents: number;
  items: readonly TraceItem[];
  /** The body as received, decoded as UTF-8 (a BOM kept), up to the terminal event: for `.sse` export. */
  raw: string;
  /**
   * In memory, in a recorder's snapshots: `raw.slice(from, to)`, taken from the chunks received. `raw` is a
   * rope of every chunk, and slicing it copies it whole: a growing recording's parts are taken from here
   * instead (`writer.ts`). Never stored (a function: a store that tried would fail loudly);
   * `withFiguresKept` leaves it out.
   */
  rawSlice?: (from: number, to: number) => string;
  /** Set when the per-attempt cap was reached and later items were not kept. */
  truncated: boolean;
  /**
   * The model's silence before the end (ms), as the conversation record keeps it when there was one: the
   * items it is measured from stay apart until the inspector asks (`silenceBeforeEndOf`).
   */
  silenceBeforeEndMs?: number;
}

/** The exact request of an attempt: retry sends this body again, byte for byte. */
export interface SentRequest {
  url: string;
  path: string;
  /** Headers as sent, with credentials removed: they are never stored. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /**
   * Set when the body could not be read back from storage (its record is gone, or damaged): `body` is then
   * empty, and Retry and Regenerate build the request again from the conversation.
   */
  bodyMissing?: 'missing' | 'unreadable';
}

export interface Attempt {
  id: string;
  /** Wall-clock start, for display and ordering. */
  startedAt: number;
  request: SentRequest;
  /** The headers this attempt was sent with, credentials named but redacted. */
  sentHeaders: Record<string, string>;
  turn: Turn;
  /** Set when the gateway refused the request before streaming (HTTP status ≥ 400). */
  httpError: HttpError | null;
  trace: AttemptTrace;
  /**
   * The server ran this attempt and relays it (docs/relay.md): while it streams, a reload or another
   * device picks it up from the server rather than calling it interrupted.
   */
  relayed?: true;
}

/** A file sent with a user message: its bytes live in IndexedDB as a blob under `id`, never in the record. */
export interface AttachmentRef {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  /** Images go as each protocol's image part; text and code files as text with their name. */
  kind: 'image' | 'text';
}

/**
 * Where a message sits in the conversation's tree: the message it follows (null: the first one). Absent in
 * records from before branches: there each message follows the one before it in `messages`.
 */
interface Placed {
  parentId?: string | null;
}

export interface UserMessage extends Placed {
  id: string;
  role: 'user';
  text: string;
  createdAt: number;
  attachments?: AttachmentRef[];
}

/** Where an answer came from: the gateway (it can be sent again), or a recording replayed from a file (it cannot). */
export type AnswerSource = { kind: 'gateway' } | { kind: 'replay'; file: string };

export interface AssistantMessage extends Placed {
  id: string;
  role: 'assistant';
  protocol: Protocol;
  model: string;
  source: AnswerSource;
  createdAt: number;
  /** Every attempt at this answer, oldest first; the last one is what the conversation continues from. */
  attempts: Attempt[];
  /**
   * Set on the first answer after a protocol switch whose request had to leave out earlier answers'
   * reasoning state: the protocols that state belongs to (signatures and encrypted reasoning only work there).
   */
  reasoningLeftOut?: Protocol[];
  /**
   * Anthropic Messages: thinking was asked for but this answer continues tool calls made without it, and an
   * assistant turn thinks all the way or not at all, so its request went without thinking.
   */
  thinkingPaused?: boolean;
  /** Its tool calls were left to the person: the calls before it had been answered by templates too often. */
  automaticLimit?: boolean;
}

export interface ToolResultMessage extends Placed {
  id: string;
  role: 'tool';
  toolCallId: string;
  name: string;
  content: string;
  createdAt: number;
  /** Written by its tool's result template, not by the person. */
  automatic?: boolean;
}

export type ChatMessage = UserMessage | AssistantMessage | ToolResultMessage;

/** What the toolbar chooses, remembered per conversation and brought back when the person returns to it. */
export interface ConversationChoices {
  protocol: Protocol;
  model: string;
  reasoning: ReasoningLevel;
}

/** A tool a person defined: offered as defined; with a template, its calls are answered with it (`fillTemplate`). */
export interface SavedTool extends ToolDefinition {
  resultTemplate?: string;
}

/** The tools a conversation offers, how the model may use them, and the schema its answers must match. */
export interface ToolSetup {
  tools: SavedTool[];
  /** Absent: the protocol's default. */
  choice?: ToolChoice;
  output?: OutputSchema;
}

/**
 * A named start for new chats: what a conversation chose (protocol, model, reasoning), its system prompt
 * and its sampling parameters. Kept with the settings, so it follows the person and goes into backups.
 */
export interface Preset {
  id: string;
  name: string;
  createdAt: number;
  choices: ConversationChoices;
  systemPrompt: string;
  parameters: SamplingParameters;
  /** Absent in presets saved before tools were kept: the defaults then. */
  toolSetup?: ToolSetup;
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Every message of every branch, in the order they were made; the shown branch is a path through them. */
  messages: ChatMessage[];
  /**
   * The version chosen at each fork: parent message id (`''` for the first message) → chosen child id.
   * A fork with no choice shows its newest child.
   */
  selected?: Record<string, string>;
  /** Absent until the conversation's first request (and in records from before it was remembered). */
  choices?: ConversationChoices;
  /**
   * The system prompt its requests send, from the default in Settings when its first request is sent (or
   * set for it before); absent until then, and in records from before it was remembered: the default then.
   */
  systemPrompt?: string;
  /**
   * The sampling parameters its requests send (each protocol takes those it has), from the defaults in
   * Settings when its first request is sent (or set for it before); absent until then, and in records from
   * before they were kept: the defaults then.
   */
  parameters?: SamplingParameters;
  /** Its tools (`ToolSetup`), kept like `parameters`: from the defaults in Settings at its first request. */
  toolSetup?: ToolSetup;
}

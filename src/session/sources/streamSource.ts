import type { AnswerSource } from '../../state/domain/types.ts';

/** One attempt's way to its stream: the response to read, and what the inspector shows of the request. */
export interface Connection {
  open(signal: AbortSignal): Promise<Response>;
  /** The headers as the inspector shows them, credentials named but never with their value. */
  sentHeaders: Record<string, string>;
  /** Whether the response comes from another origin: a network failure may then be CORS. */
  crossOrigin: boolean;
  /** After a network failure: whether the page's security policy refused the connection. */
  refusedByPolicy?(): Promise<boolean>;
}

/**
 * Where an answer's stream comes from: the gateway called from the page, or a recording replayed (and,
 * next, an answer the server runs and relays). An answer in flight reads every source the same way.
 */
export interface StreamSource {
  /** What the answer records of where it came from. */
  readonly source: AnswerSource;
  /** Failures before any output may be tried again on their own (the person's setting decides). */
  readonly retriesOnItsOwn: boolean;
  /** Called per attempt, so that each one goes out with the settings of that moment. */
  connect(attempt: AttemptLabel): Connection;
}

/** Which attempt a connection is for: a same-origin server records its usage under these (team mode). */
export interface AttemptLabel {
  conversationId: string;
  attemptId: string;
}

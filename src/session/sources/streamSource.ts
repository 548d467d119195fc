import type { AnswerSource } from '../../state/domain/types.ts';

/** What a connection tells its answer about the server that runs it, if one does (docs/relay.md). */
export interface RelayLink {
  /** The server runs this attempt: a reload or another device can pick it up. */
  relayed(): void;
  /** The page lost its connection to the server: the answer goes on there, and the page reconnects. */
  reconnecting(): void;
  /** Connected again: reading goes on from the last piece. */
  resumed(): void;
}

/** One attempt's way to its stream: the response to read, and what the inspector shows of the request. */
export interface Connection {
  open(signal: AbortSignal, link: RelayLink): Promise<Response>;
  /** The attempt has ended and its answer holds it: a server that relayed it may forget it. */
  stored?(): void;
  /**
   * When the first `received` bytes of the body reached the server that ran the answer, in ms after it
   * sent the request (a relayed answer): the recording's times. Undefined: as the page reads them.
   */
  recordingTime?(received: number): number | undefined;
  /** The headers as the inspector shows them, credentials named but never with their value. */
  sentHeaders: Record<string, string>;
  /** Whether the response comes from another origin: a network failure may then be CORS. */
  crossOrigin: boolean;
  /** After a network failure: whether the page's security policy refused the connection. */
  refusedByPolicy?(): Promise<boolean>;
}

/**
 * Where an answer's stream comes from: the gateway called from the page (or through the server, which may
 * run it and relay it), a recording replayed, or an answer the server is running, picked up again. An
 * answer in flight reads every source the same way.
 */
export interface StreamSource {
  /** What the answer records of where it came from. */
  readonly source: AnswerSource;
  /** Failures before any output may be tried again on their own (the person's setting decides). */
  readonly retriesOnItsOwn: boolean;
  /** Called per attempt, so that each one goes out with the settings of that moment. */
  connect(attempt: AttemptLabel): Connection;
}

/**
 * Why an answer in flight is stopped. Only the page going away leaves an answer the server runs going:
 * a reload or another device picks it up.
 */
export type StopReason = 'stopped' | 'deleted' | 'retry' | 'disposed';

/** Which attempt a connection is for: a same-origin server records its usage under these (team mode). */
export interface AttemptLabel {
  conversationId: string;
  attemptId: string;
}

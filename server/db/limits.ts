/** How large what a person stores may be, each piece on its own (bytes of UTF-8 JSON, or of the file). */
export interface StorageLimits {
  conversationBytes: number;
  recordingBytes: number;
  /** An attempt's request body (its JSON): it holds the conversation's history again, files as placeholders. */
  requestBytes: number;
  attachmentBytes: number;
  settingsBytes: number;
}

/**
 * A conversation's record holds neither its recordings nor its files; a recording is capped by the browser
 * too (`truncated`); the browser refuses a message's files above 15 MB together.
 */
export const defaultLimits: StorageLimits = {
  conversationBytes: 10_000_000,
  recordingBytes: 10_000_000,
  requestBytes: 10_000_000,
  attachmentBytes: 16_000_000,
  settingsBytes: 1_000_000,
};

/** Refused before touching the database: the routes answer 413. */
export class TooLarge extends Error {
  override name = 'TooLarge';
  constructor(
    readonly what: keyof StorageLimits,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`${what}: ${bytes} bytes, above the limit of ${limit}`);
  }
}

export function checkSize(what: keyof StorageLimits, bytes: number, limits: StorageLimits): void {
  if (bytes > limits[what]) throw new TooLarge(what, bytes, limits[what]);
}

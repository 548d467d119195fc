/**
 * How much of one answer `readTurn` keeps in memory. A stream that never ends (or one giant event) would
 * otherwise grow strings until V8 gives up ("Invalid string length", at about 512 M characters) and take the
 * tab with it. Reading stops at a cap, the answer ends as `error` with code `too_large`, and everything
 * received up to that point is kept.
 */
export interface ReadLimits {
  /**
   * Characters of answer: text, reasoning, refusal and tool arguments together. 4 M characters is about a
   * million tokens: eight times the longest answer any current model may give (128k output tokens).
   */
  answerChars: number;
  /**
   * Characters of one event still being received (a line without its end, or `data:` lines without their
   * blank line). 16 M leaves room for Responses' terminal event, which repeats the whole answer as escaped
   * JSON, for an answer at the cap above.
   */
  eventChars: number;
}

export const readLimits: Readonly<ReadLimits> = Object.freeze({
  answerChars: 4_000_000,
  eventChars: 16_000_000,
});

/** `4000000` as `4,000,000`: how caps are named in messages. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * When to retry a request automatically. Only failures before any output qualify: once output has
 * begun, a retry re-sends the whole request and bills again, so the person decides.
 * Delays follow the official SDKs: the server's Retry-After when it is between 0 and 60 s,
 * otherwise 0.5 s × 2^n capped at 8 s, minus up to 25 % jitter.
 */

export const maxAutomaticRetries = 2;

export function automaticRetryDelayMs(
  retriesSoFar: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  if (retriesSoFar >= maxAutomaticRetries) return null;
  if (retryAfterSeconds !== null && retryAfterSeconds >= 0 && retryAfterSeconds <= 60) {
    return Math.round(retryAfterSeconds * 1000);
  }
  const base = Math.min(500 * 2 ** retriesSoFar, 8000);
  return Math.round(base * (1 - 0.25 * random()));
}

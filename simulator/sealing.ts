import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The simulated provider's opaque tokens: Anthropic's thinking `signature` and `redacted_thinking.data`,
 * Responses' `encrypted_content`. Each one is a random nonce with an HMAC over what it vouches for, so
 * the simulator can tell, as the real APIs do, a token it issued for exactly that content from one that
 * was altered, truncated, issued for other content or by someone else. The key is fixed: a token stays
 * valid across restarts, as a real provider's does.
 */
const KEY = 'hopbase-simulator-reasoning-v1';
const NONCE_BYTES = 48;
const MAC_BYTES = 32;

function mac(purpose: string, nonce: Buffer, content: string): Buffer {
  return createHmac('sha256', KEY).update(purpose).update('\0').update(nonce).update(content).digest();
}

/** A token (base64) for `content`, issued for one `purpose` (a token for another purpose never verifies). */
export function seal(purpose: string, content: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  return Buffer.concat([nonce, mac(purpose, nonce, content)]).toString('base64');
}

/** Whether `token` is exactly one that `seal(purpose, content)` issued. */
export function verifySeal(purpose: string, content: string, token: unknown): boolean {
  if (typeof token !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return false;
  const bytes = Buffer.from(token, 'base64');
  // Base64 that does not round-trip (stray bits in the last character) is not a token we wrote.
  if (bytes.length !== NONCE_BYTES + MAC_BYTES || bytes.toString('base64') !== token) return false;
  return timingSafeEqual(bytes.subarray(NONCE_BYTES), mac(purpose, bytes.subarray(0, NONCE_BYTES), content));
}

/** Who a request is from, as sign-in established it. */
export interface Identity {
  /**
   * With `subject`, one person at one provider, never reused for another: the OpenID provider's issuer and
   * subject, or `header` and the email a trusted proxy names.
   */
  readonly issuer: string;
  readonly subject: string;
  /** Lower case; null when the provider gave none it vouches for. */
  readonly email: string | null;
  readonly name: string | null;
  readonly admin: boolean;
}

/** Emails as compared: the whole address in lower case, surrounding space removed. */
export function normalEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  // One @ with something on each side, no spaces or control characters, at most RFC 5321's 254.
  return email.length <= 254 && /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(email) ? email : null;
}

/**
 * Where to go after sign-in: a path on this server only (`/c/conv_1`), never another origin (`//evil`,
 * `/\evil`, `https://…`), so the sign-in cannot be used to send people elsewhere.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters and backslashes never appear in our own paths; browsers treat `\` as `/`.
  if (/[\p{Cc}\\]/u.test(value)) return '/';
  return value;
}

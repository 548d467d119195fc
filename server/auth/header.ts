import type { IncomingHttpHeaders } from 'node:http';
import { type HeaderConfig, isTrustedProxy } from './config.ts';
import { type Identity, normalEmail } from './identity.ts';

/**
 * The person a reverse proxy that authenticates (oauth2-proxy, Cloudflare Access, Authelia…) names in its
 * header, or null. The header counts only on a request whose peer is a trusted proxy: from anywhere else it
 * could be anyone's word. A header given twice, or not an email, names nobody.
 */
export function identityFromHeader(
  header: HeaderConfig,
  admins: ReadonlySet<string>,
  peer: string | undefined,
  headers: IncomingHttpHeaders,
): Identity | null {
  if (!isTrustedProxy(header, peer)) return null;
  const value = headers[header.name];
  if (typeof value !== 'string' || value.includes(',')) return null;
  const email = normalEmail(value);
  if (!email) return null;
  return { issuer: 'header', subject: email, email, name: null, admin: admins.has(email) };
}

import { BlockList, isIP } from 'node:net';
import { ConfigError, list } from '../config.ts';

/**
 * Team mode's settings (README, "Deploy"), checked once at start. Single-person mode (HOPBASE_AUTH unset)
 * has none. Messages name the variable and what is wrong, never a secret's value.
 */
export type AuthConfig =
  | { readonly mode: 'none' }
  | (TeamConfig & { readonly mode: 'oidc'; readonly oidc: OidcConfig })
  | (TeamConfig & { readonly mode: 'header'; readonly header: HeaderConfig });

interface TeamConfig {
  /** Where people reach this server: the sign-in's redirect and whether cookies are `Secure`. */
  readonly publicUrl: URL | null;
  /** Emails (lower case) of the administrators, from HOPBASE_ADMINS. */
  readonly admins: ReadonlySet<string>;
  /** How long a session lasts without a new sign-in. */
  readonly sessionMs: number;
}

export interface OidcConfig {
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: URL;
  /** `claim=value`: a person whose ID token or user info has that claim (or a list holding it) is an administrator. */
  readonly adminClaim: { readonly claim: string; readonly value: string } | null;
}

export interface HeaderConfig {
  /** The request header (lower case) the reverse proxy puts the person's email in. */
  readonly name: string;
  /** Only requests from these addresses may carry it; from elsewhere it is ignored. */
  readonly trustedProxies: BlockList;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_SESSION_DAYS = 30;

function required(env: NodeJS.ProcessEnv, name: string, why: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is required when HOPBASE_AUTH=${env.HOPBASE_AUTH}: ${why}.`);
  return value;
}

function httpUrl(name: string, raw: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (expected e.g. ${example}).`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(
      `${name} must use https (or http on this machine), not ${url.protocol.replace(':', '')}.`,
    );
  if (url.username || url.password || url.search || url.hash)
    throw new ConfigError(`${name} must not carry a user, password, query or fragment.`);
  return url;
}

/** An address or network (`10.0.0.0/8`, `::1`) added to `list`; the thrown message names the bad entry. */
function addTrusted(blocks: BlockList, entry: string): void {
  const [address = '', bits] = entry.split('/');
  const family = isIP(address);
  const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
  if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32))
    throw new ConfigError(
      `HOPBASE_TRUSTED_PROXIES: "${entry}" is not an address or network (expected e.g. 127.0.0.1, 10.0.0.0/8, ::1).`,
    );
  blocks.addSubnet(address, prefix, family === 6 ? 'ipv6' : 'ipv4');
}

function trustedProxies(value: string | undefined): BlockList {
  const blocks = new BlockList();
  const entries = list(value);
  for (const entry of entries.length ? entries : ['127.0.0.0/8', '::1']) addTrusted(blocks, entry);
  return blocks;
}

function adminClaim(value: string | undefined): OidcConfig['adminClaim'] {
  if (!value?.trim()) return null;
  const match = /^([^=\s]+)=(.+)$/.exec(value.trim());
  if (!match?.[1] || !match[2])
    throw new ConfigError('HOPBASE_OIDC_ADMIN_CLAIM must be claim=value (e.g. groups=hopbase-admins).');
  return { claim: match[1], value: match[2] };
}

function sessionMs(value: string | undefined): number {
  if (!value?.trim()) return DEFAULT_SESSION_DAYS * DAY_MS;
  const days = Number(value);
  if (!Number.isFinite(days) || days <= 0 || days > 366)
    throw new ConfigError(`HOPBASE_SESSION_DAYS must be a number of days between 0 and 366, not "${value}".`);
  return days * DAY_MS;
}

export function authConfigFromEnv(env: NodeJS.ProcessEnv): AuthConfig {
  const mode = env.HOPBASE_AUTH?.trim().toLowerCase() ?? '';
  if (mode === '' || mode === 'none') return { mode: 'none' };
  const publicUrlText = env.HOPBASE_PUBLIC_URL?.trim();
  const team: TeamConfig = {
    publicUrl: publicUrlText
      ? httpUrl('HOPBASE_PUBLIC_URL', publicUrlText, 'https://chat.example.com')
      : null,
    admins: new Set(list(env.HOPBASE_ADMINS).map((email) => email.toLowerCase())),
    sessionMs: sessionMs(env.HOPBASE_SESSION_DAYS),
  };
  if (mode === 'header') {
    const name = env.HOPBASE_AUTH_HEADER?.trim().toLowerCase() || 'x-forwarded-email';
    if (!/^[a-z0-9-]+$/.test(name))
      throw new ConfigError(
        `HOPBASE_AUTH_HEADER must be a header name (letters, digits, dashes), not "${name}".`,
      );
    return { ...team, mode, header: { name, trustedProxies: trustedProxies(env.HOPBASE_TRUSTED_PROXIES) } };
  }
  if (mode === 'oidc') {
    if (!team.publicUrl)
      throw new ConfigError(
        'HOPBASE_PUBLIC_URL is required when HOPBASE_AUTH=oidc: the provider sends people back to it after sign-in.',
      );
    const issuer = httpUrl(
      'HOPBASE_OIDC_ISSUER',
      required(env, 'HOPBASE_OIDC_ISSUER', 'the OpenID provider people sign in with'),
      'https://accounts.example.com/realms/team',
    );
    if (issuer.protocol === 'http:' && !isLoopbackUrl(issuer))
      throw new ConfigError(
        'HOPBASE_OIDC_ISSUER must use https (plain http only for a provider on this machine).',
      );
    return {
      ...team,
      mode,
      oidc: {
        issuer,
        clientId: required(env, 'HOPBASE_OIDC_CLIENT_ID', 'this app’s client id at the provider'),
        clientSecret: required(env, 'HOPBASE_OIDC_CLIENT_SECRET', 'this app’s client secret at the provider'),
        redirectUri: new URL('/auth/callback', team.publicUrl),
        adminClaim: adminClaim(env.HOPBASE_OIDC_ADMIN_CLAIM),
      },
    };
  }
  throw new ConfigError(`HOPBASE_AUTH must be oidc, header or unset (single-person mode), not "${mode}".`);
}

/** Whether a request from `address` (the socket's peer) may name the person in the proxy's header. */
export function isTrustedProxy(header: HeaderConfig, address: string | undefined): boolean {
  if (!address) return false;
  // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  return family !== 0 && header.trustedProxies.check(plain, family === 6 ? 'ipv6' : 'ipv4');
}

/** A URL on this machine: plain http is acceptable there only (a test's provider, a developer's). */
export function isLoopbackUrl(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

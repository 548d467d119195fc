import type { IncomingHttpHeaders } from 'node:http';
import type { Storage } from '../db/storage.ts';
import type { User } from '../db/users.ts';
import type { AuthConfig } from './config.ts';
import { identityFromHeader } from './header.ts';
import type { Identity } from './identity.ts';
import { OidcSignIn } from './oidc.ts';

export type TeamConfig = Exclude<AuthConfig, { mode: 'none' }>;

/** How long a person named by the proxy's header is taken as known before the database is asked again. */
const HEADER_PEOPLE_MS = 60_000;
const HEADER_PEOPLE_MAX = 1_000;

/**
 * Who a request is from, in team mode: a session cookie (OIDC sign-in), or a trusted reverse proxy's header.
 * Sessions live in the database, so any server process knows them and sign-out revokes them everywhere.
 */
export class TeamAuth {
  readonly oidc: OidcSignIn | null;
  /** `__Host-` when only sent over HTTPS: no subdomain can set or read it then. */
  readonly cookieName: string;
  readonly secureCookie: boolean;
  /** People a proxy named lately: each request would otherwise write their `seen_at`. */
  private readonly headerPeople = new Map<string, { user: User; until: number }>();

  constructor(
    readonly config: TeamConfig,
    readonly storage: Pick<Storage, 'users' | 'sessions' | 'signIns'>,
    private readonly now: () => number = Date.now,
  ) {
    this.oidc = config.mode === 'oidc' ? new OidcSignIn(config.oidc, config.admins) : null;
    this.secureCookie = config.publicUrl?.protocol === 'https:';
    this.cookieName = this.secureCookie ? '__Host-hopbase-session' : 'hopbase-session';
  }

  /** The signed-in person `token` (the session cookie's value) or the proxy's header names; undefined: nobody. */
  async personOf(
    peer: string | undefined,
    headers: IncomingHttpHeaders,
    token: string | undefined,
  ): Promise<User | undefined> {
    if (this.config.mode === 'header') {
      const identity = identityFromHeader(this.config.header, this.config.admins, peer, headers);
      return identity ? this.headerPerson(identity) : undefined;
    }
    if (!token) return undefined;
    const session = await this.storage.sessions.find(token);
    return session && this.storage.users.get(session.userId);
  }

  /** Records the sign-in and starts a new session (the one `previous` named, if any, ends: a new token each sign-in). */
  async signIn(identity: Identity, previous: string | undefined): Promise<{ user: User; token: string }> {
    const user = await this.record(identity);
    if (previous) await this.storage.sessions.revoke(previous);
    const { token } = await this.storage.sessions.create(user.id);
    return { user, token };
  }

  private async headerPerson(identity: Identity): Promise<User> {
    const known = this.headerPeople.get(identity.subject);
    const now = this.now();
    if (known && known.until > now && known.user.isAdmin === identity.admin) return known.user;
    const user = await this.record(identity);
    if (this.headerPeople.size >= HEADER_PEOPLE_MAX) this.headerPeople.clear();
    this.headerPeople.set(identity.subject, { user, until: now + HEADER_PEOPLE_MS });
    return user;
  }

  /** The person this sign-in names, as the database keeps them (made on their first sign-in). */
  private record(identity: Identity): Promise<User> {
    return this.storage.users.signIn(
      { issuer: identity.issuer, subject: identity.subject },
      { email: identity.email, displayName: identity.name, isAdmin: identity.admin },
    );
  }
}

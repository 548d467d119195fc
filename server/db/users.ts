import * as v from 'valibot';
import { type Database, firstRow, timestamp } from './database.ts';

/** The people who have signed in, found by the identity their sign-in gives. */

/** Who signed in: OIDC's issuer and subject, or (behind an authenticating proxy) `header` and the header's value. */
export interface Identity {
  issuer: string;
  subject: string;
}

export interface User {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  displayName: string | null;
  isAdmin: boolean;
  createdAt: Date;
  seenAt: Date;
}

const userRow = v.pipe(
  v.object({
    id: v.string(),
    issuer: v.string(),
    subject: v.string(),
    email: v.nullable(v.string()),
    display_name: v.nullable(v.string()),
    is_admin: v.boolean(),
    created_at: timestamp,
    seen_at: timestamp,
  }),
  v.transform(
    (row): User => ({
      id: row.id,
      issuer: row.issuer,
      subject: row.subject,
      email: row.email,
      displayName: row.display_name,
      isAdmin: row.is_admin,
      createdAt: row.created_at,
      seenAt: row.seen_at,
    }),
  ),
);

/** What a sign-in gives, from the provider or a proxy's header: text PostgreSQL can hold, of a sane length. */
const field = v.pipe(v.string(), v.maxLength(1_000), v.regex(/^[^\0]*$/));
const signInInput = v.object({
  issuer: v.pipe(field, v.minLength(1)),
  subject: v.pipe(field, v.minLength(1)),
  email: v.nullable(field),
  displayName: v.nullable(field),
  isAdmin: v.boolean(),
});

const columns = 'id, issuer, subject, email, display_name, is_admin, created_at, seen_at';

/** A user id as PostgreSQL writes a uuid: anything else names no one (and would be a query error). */
export const userIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class Users {
  constructor(private readonly db: Database) {}

  /**
   * The person with this identity, made on their first sign-in; email, name and administrator flag are
   * taken from this sign-in (the provider and HOPBASE_ADMINS are their source), and the time seen updated.
   */
  async signIn(
    identity: Identity,
    profile: { email: string | null; displayName: string | null; isAdmin: boolean },
  ): Promise<User> {
    const input = v.parse(signInInput, { ...identity, ...profile });
    const found = await this.db.query(
      `INSERT INTO users (issuer, subject, email, display_name, is_admin) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (issuer, subject) DO UPDATE
         SET email = excluded.email, display_name = excluded.display_name, is_admin = excluded.is_admin,
             seen_at = now()
       RETURNING ${columns}`,
      [input.issuer, input.subject, input.email, input.displayName, input.isAdmin],
    );
    return firstRow(userRow, found) as User;
  }

  async get(id: string): Promise<User | undefined> {
    if (!userIdPattern.test(id)) return undefined;
    return firstRow(userRow, await this.db.query(`SELECT ${columns} FROM users WHERE id = $1`, [id]));
  }
}

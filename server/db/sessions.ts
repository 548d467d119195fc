import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { type Database, firstRow, int, type Queryable, timestamp } from './database.ts';

/**
 * Server-side sessions: the cookie holds a random token, the database only its SHA-256 (a fast hash is
 * enough for 256 random bits), so whoever reads the table cannot sign in with it. A session can be revoked
 * one by one or all of a person's at once; expired and revoked ones are swept.
 */

export interface NewSession {
  /** For the cookie only: it is stored nowhere. */
  token: string;
  userId: string;
  expiresAt: Date;
}

export interface Session {
  userId: string;
  createdAt: Date;
  expiresAt: Date;
}

/** 32 bytes, base64url: what `create` hands out. Anything else is no session, without asking the database. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

const hash = (token: string) => createHash('sha256').update(token).digest();

const sessionRow = v.pipe(
  v.object({ user_id: v.string(), created_at: timestamp, expires_at: timestamp }),
  v.transform(
    (row): Session => ({ userId: row.user_id, createdAt: row.created_at, expiresAt: row.expires_at }),
  ),
);
const countRow = v.object({ count: int });

export const DEFAULT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

export class Sessions {
  constructor(
    private readonly db: Database,
    private readonly lifetimeMs = DEFAULT_SESSION_MS,
  ) {}

  create(userId: string): Promise<NewSession> {
    return this.insert(this.db, userId);
  }

  /** The live session this token names: not revoked, not expired. */
  async find(token: string): Promise<Session | undefined> {
    if (!tokenPattern.test(token)) return undefined;
    return firstRow(
      sessionRow,
      await this.db.query(
        `SELECT user_id, created_at, expires_at FROM sessions
         WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()`,
        [hash(token)],
      ),
    );
  }

  /** A new session for the same person in place of this one, which is revoked; undefined if it was not live. */
  rotate(token: string): Promise<NewSession | undefined> {
    if (!tokenPattern.test(token)) return Promise.resolve(undefined);
    return this.db.transaction(async (tx) => {
      const revoked = firstRow(
        v.object({ user_id: v.string() }),
        await tx.query(
          `UPDATE sessions SET revoked_at = now()
           WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now()
           RETURNING user_id`,
          [hash(token)],
        ),
      );
      return revoked && this.insert(tx, revoked.user_id);
    });
  }

  async revoke(token: string): Promise<void> {
    if (!tokenPattern.test(token)) return;
    await this.db.query(
      'UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
      [hash(token)],
    );
  }

  /** Signs the person out everywhere; how many sessions were live. */
  async revokeAll(userId: string): Promise<number> {
    const found = await this.db.query(
      `WITH revoked AS (
         UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING 1
       ) SELECT count(*) AS count FROM revoked`,
      [userId],
    );
    return firstRow(countRow, found)?.count ?? 0;
  }

  /** Deletes expired and revoked sessions; how many. */
  async sweep(): Promise<number> {
    const found = await this.db.query(
      `WITH gone AS (
         DELETE FROM sessions WHERE expires_at <= now() OR revoked_at IS NOT NULL RETURNING 1
       ) SELECT count(*) AS count FROM gone`,
    );
    return firstRow(countRow, found)?.count ?? 0;
  }

  private async insert(on: Queryable, userId: string): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const row = firstRow(
      v.object({ expires_at: timestamp }),
      await on.query(
        `INSERT INTO sessions (token_hash, user_id, expires_at)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING expires_at`,
        [hash(token), userId, this.lifetimeMs],
      ),
    );
    if (!row) throw new Error('the session was not stored');
    return { token, userId, expiresAt: row.expires_at };
  }
}

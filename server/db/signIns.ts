import * as v from 'valibot';
import { type Database, firstRow } from './database.ts';

/** An OpenID sign-in under way: what the callback needs to check the provider's answer. */
export interface PendingSignIn {
  readonly state: string;
  readonly verifier: string;
  readonly nonce: string;
  readonly returnTo: string;
}

const TTL_MS = 10 * 60 * 1000;
const text = v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.regex(/^[^\0]*$/));
const pendingRow = v.pipe(
  v.object({ state: text, verifier: text, nonce: text, return_to: text }),
  v.transform(
    (row): PendingSignIn => ({
      state: row.state,
      verifier: row.verifier,
      nonce: row.nonce,
      returnTo: row.return_to,
    }),
  ),
);

/** Sign-ins under way, kept where every server process finds them, each taken at most once. */
export class SignIns {
  constructor(private readonly db: Database) {}

  async put(pending: PendingSignIn): Promise<void> {
    await this.db.query(
      `INSERT INTO sign_ins (state, verifier, nonce, return_to, expires_at)
       VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
      [pending.state, pending.verifier, pending.nonce, pending.returnTo, TTL_MS],
    );
    // Sign-ins abandoned at the provider go with the next one begun.
    await this.db.query('DELETE FROM sign_ins WHERE expires_at <= now()');
  }

  /** The sign-in begun under `state`, removed so its answer cannot be used twice; undefined: none, or expired. */
  async take(state: string): Promise<PendingSignIn | undefined> {
    if (!v.is(text, state)) return undefined;
    return firstRow(
      pendingRow,
      await this.db.query(
        `DELETE FROM sign_ins WHERE state = $1 AND expires_at > now()
         RETURNING state, verifier, nonce, return_to`,
        [state],
      ),
    );
  }
}

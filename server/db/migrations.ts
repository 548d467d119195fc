/**
 * The schema, as the steps that build it, for both engines (PGlite is PostgreSQL). A step once released is
 * never edited (the migrator refuses a database whose applied steps differ from these): a change is a new
 * step at the end. Each step is a list of statements, run in one transaction.
 *
 * Per person: every table a person's data lives in has `user_id` first in its key, and every query of
 * theirs names it (`storage.ts`, `forUser`). Client ids (conversations, attempts, attachments) are unique per person
 * only: two people may use the same id without meeting. Times the browser sets (a conversation's creation
 * and last change) are ms since 1970, as its records hold them; times the server sets are timestamptz.
 */

export interface Migration {
  name: string;
  statements: readonly string[];
}

export const migrations: readonly Migration[] = [
  {
    name: '0001 people, sessions, conversations, attachments, recordings, settings, usage',
    statements: [
      // Trigram indexes make a substring search (LIKE '%…%') use an index: PGlite and PostgreSQL both ship it.
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
      `CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        -- OIDC: the issuer and the subject it gives; behind an authenticating proxy: 'header' and its value.
        issuer text NOT NULL,
        subject text NOT NULL,
        email text,
        display_name text,
        is_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now(),
        seen_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (issuer, subject)
      )`,
      `CREATE TABLE sessions (
        -- SHA-256 of the cookie's random token: a copy of the table signs no one in.
        token_hash bytea PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`,
      'CREATE INDEX sessions_user ON sessions (user_id)',
      'CREATE INDEX sessions_expires ON sessions (expires_at)',
      // Orders every change to what syncs (conversations, settings), so a device can ask for what it missed.
      'CREATE SEQUENCE changes',
      `CREATE TABLE conversations (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        id text NOT NULL CHECK (length(id) BETWEEN 1 AND 200),
        version integer NOT NULL CHECK (version > 0),
        change bigint NOT NULL DEFAULT nextval('changes'),
        title text NOT NULL,
        created_ms bigint NOT NULL,
        updated_ms bigint NOT NULL,
        -- Set when deleted: the row stays, without its content, so other devices learn of the deletion.
        deleted_at timestamptz,
        -- The browser's record as JSON text (jsonb refuses the NUL character, which an answer may hold).
        record text,
        -- Title and messages' text, folded as the browser's search folds it (src/core/searchText.ts).
        search_text text NOT NULL DEFAULT '',
        PRIMARY KEY (user_id, id),
        CHECK ((deleted_at IS NULL) = (record IS NOT NULL))
      )`,
      `CREATE INDEX conversations_page ON conversations (user_id, updated_ms DESC, id DESC)
        WHERE deleted_at IS NULL`,
      'CREATE INDEX conversations_changes ON conversations (user_id, change)',
      'CREATE INDEX conversations_search ON conversations USING gin (search_text gin_trgm_ops)',
      `CREATE TABLE attachments (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        id text NOT NULL CHECK (length(id) BETWEEN 1 AND 200),
        conversation_id text NOT NULL,
        name text NOT NULL,
        mime_type text NOT NULL,
        size integer NOT NULL CHECK (size >= 0),
        sha256 bytea NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, id)
      )`,
      'CREATE INDEX attachments_conversation ON attachments (user_id, conversation_id)',
      `CREATE TABLE recordings (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        attempt_id text NOT NULL CHECK (length(attempt_id) BETWEEN 1 AND 200),
        conversation_id text NOT NULL,
        -- {"items": [...], "raw": "..."} as JSON text, as the browser's trace record holds it.
        trace text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, attempt_id)
      )`,
      'CREATE INDEX recordings_conversation ON recordings (user_id, conversation_id)',
      `CREATE TABLE settings (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version > 0),
        change bigint NOT NULL DEFAULT nextval('changes'),
        document text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Kept when a conversation is deleted: tokens were billed all the same.
      `CREATE TABLE usage (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        attempt_id text NOT NULL CHECK (length(attempt_id) BETWEEN 1 AND 200),
        conversation_id text NOT NULL,
        protocol text NOT NULL,
        model text NOT NULL,
        day date NOT NULL,
        input_tokens integer NOT NULL DEFAULT 0,
        output_tokens integer NOT NULL DEFAULT 0,
        cached_tokens integer NOT NULL DEFAULT 0,
        cache_write_tokens integer NOT NULL DEFAULT 0,
        reasoning_tokens integer NOT NULL DEFAULT 0,
        interrupted boolean NOT NULL DEFAULT false,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, attempt_id)
      )`,
      'CREATE INDEX usage_person_day ON usage (user_id, day)',
      'CREATE INDEX usage_day ON usage (day)',
    ],
  },
  {
    name: '0002 sign-ins under way',
    statements: [
      // An OpenID sign-in between leaving for the provider and coming back, under its `state`: any server
      // process may receive the callback. Taken once; kept at most ten minutes.
      `CREATE TABLE sign_ins (
        state text PRIMARY KEY CHECK (length(state) BETWEEN 16 AND 200),
        verifier text NOT NULL,
        nonce text NOT NULL,
        return_to text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
      'CREATE INDEX sign_ins_expires ON sign_ins (expires_at)',
    ],
  },
  {
    name: '0003 request bodies',
    statements: [
      // What each attempt sent, apart from its conversation's record (it holds the whole history again):
      // written once, deleted with its conversation.
      `CREATE TABLE request_bodies (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        attempt_id text NOT NULL CHECK (length(attempt_id) BETWEEN 1 AND 200),
        conversation_id text NOT NULL,
        -- JSON text, as recordings: jsonb would reorder its keys and refuses the NUL character.
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, attempt_id)
      )`,
      'CREATE INDEX request_bodies_conversation ON request_bodies (user_id, conversation_id)',
    ],
  },
  {
    name: '0004 requests of the last minute per person',
    statements: [
      // When each of a person's requests of the last minute started (`requestWindow.ts`): one row per
      // person, never more entries than the limit, so a single UPSERT both checks and counts, whichever
      // server process the request reached.
      `CREATE TABLE request_windows (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        started timestamptz[] NOT NULL
      )`,
    ],
  },
  {
    name: '0005 answers the server runs',
    statements: [
      // Each server process that runs answers, and when it last said it was alive: an answer whose
      // process has gone quiet ended with it (`lost`, relay/dbLog.ts).
      `CREATE TABLE relay_runners (
        id uuid PRIMARY KEY,
        seen_at timestamptz NOT NULL DEFAULT now()
      )`,
      // An answer a server process runs (or ran) for a person, under the page's attempt id: taken once.
      `CREATE TABLE relay_answers (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        attempt_id text NOT NULL CHECK (length(attempt_id) BETWEEN 1 AND 200),
        conversation_id text NOT NULL,
        runner uuid NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        -- Null while it runs.
        outcome text CHECK (outcome IN ('complete', 'cut', 'stopped', 'lost', 'too-large')),
        message text,
        -- A page has stored it (DELETE): kept only for the grace once it ended.
        acknowledged boolean NOT NULL DEFAULT false,
        -- Set when it ends: then it is forgotten.
        forget_at timestamptz,
        PRIMARY KEY (user_id, attempt_id)
      )`,
      'CREATE INDEX relay_answers_forget ON relay_answers (forget_at)',
      'CREATE INDEX relay_answers_running ON relay_answers (runner) WHERE outcome IS NULL',
      // Its events, a batch per row as they were written (every few tens of ms): JSON text, ids first to last.
      `CREATE TABLE relay_events (
        user_id uuid NOT NULL,
        attempt_id text NOT NULL,
        first_id integer NOT NULL,
        last_id integer NOT NULL,
        events text NOT NULL,
        PRIMARY KEY (user_id, attempt_id, first_id),
        FOREIGN KEY (user_id, attempt_id) REFERENCES relay_answers (user_id, attempt_id) ON DELETE CASCADE
      )`,
    ],
  },
];

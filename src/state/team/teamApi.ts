import * as v from 'valibot';
import { type Account, accountHere } from './account.ts';
import { errorOf, jsonOf } from './json.ts';

/**
 * The team server's API (`server/api/routes.ts`, `server/auth/routes.ts`) as the page speaks it: every
 * answer validated here, where it enters, and every failure one of a few kinds the sync knows what to do
 * with. The records themselves are read by the browser's own record reader (`records.ts`) by the caller.
 */

const count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

const serverConversation = v.variant('deleted', [
  v.object({ deleted: v.literal(false), id: v.string(), version: count, change: count, record: v.unknown() }),
  v.object({ deleted: v.literal(true), id: v.string(), version: count, change: count }),
]);
/** A conversation as the server holds it: its record (checked by the caller), or its tombstone. */
export type ServerConversation = v.InferOutput<typeof serverConversation>;

const written = v.object({ version: count, change: count });
const conflict = v.object({ current: v.nullish(serverConversation) });
const records = v.object({ items: v.array(serverConversation) });
const page = v.object({ items: v.array(v.object({ id: v.string() })) });
const searchPage = v.object({ items: v.array(v.object({ id: v.string() })), total: count });
const storedSettings = v.object({ version: count, document: v.record(v.string(), v.unknown()) });
export type ServerSettings = v.InferOutput<typeof storedSettings>;
const settingsConflict = v.object({ current: v.nullish(storedSettings) });

/** Why a request came to nothing. */
export type Failure =
  /** The session ended (signed out on another device, expired, revoked): sign in again. */
  | { kind: 'signed-out' }
  /** The server could not be reached, or answered in a way that may pass (5xx, 429): try again later. */
  | { kind: 'unreachable'; reason: string }
  /** The server refused this request for good (too large, not valid): trying again changes nothing. */
  | { kind: 'refused'; reason: string };

export type Result<T> = ({ ok: true } & T) | ({ ok: false } & Failure);

export type WriteResult =
  | Result<{ version: number }>
  /** Written elsewhere since the version it was made from: `current` is what is stored (none: nothing is). */
  | { ok: false; kind: 'conflict'; current: ServerConversation | null };

export type SettingsWriteResult =
  | Result<{ version: number }>
  | { ok: false; kind: 'conflict'; current: ServerSettings | null };

/** Conversations read in one request (the server's own cap). */
export const RECORDS_PER_REQUEST = 100;

type Fetch = typeof fetch;

export class TeamApi {
  constructor(private readonly fetchFn: Fetch = (input, init) => fetch(input, init)) {}

  /** Who this page is for (`account.ts`). */
  account(): Promise<Account> {
    return accountHere(this.fetchFn);
  }

  async signOut(): Promise<Result<object>> {
    return this.call('/auth/sign-out', { method: 'POST' }, v.unknown(), () => ({}));
  }

  /** The ids of the `limit` conversations last worked on (the server's first page of the list). */
  async newest(limit: number): Promise<Result<{ ids: string[] }>> {
    return this.call(`/api/conversations?limit=${limit}`, {}, page, (read) => ({
      ids: read.items.map((item) => item.id),
    }));
  }

  /**
   * The conversations whose title or text holds `query`, found in the database: the ids of the newest
   * `limit`, newest first, and how many match in all.
   */
  async search(query: string, limit: number): Promise<Result<{ ids: string[]; total: number }>> {
    return this.call(
      `/api/conversations?q=${encodeURIComponent(query)}&limit=${limit}`,
      {},
      searchPage,
      (read) => ({ ids: read.items.map((item) => item.id), total: read.total }),
    );
  }

  /** The conversations `ids` as stored (unknown ones left out). */
  async conversations(ids: readonly string[]): Promise<Result<{ items: ServerConversation[] }>> {
    const query = ids.map((id) => `id=${encodeURIComponent(id)}`).join('&');
    return this.call(`/api/conversation-records?${query}`, {}, records, (read) => ({ items: read.items }));
  }

  async putConversation(id: string, baseVersion: number, record: unknown): Promise<WriteResult> {
    const response = await this.send(`/api/conversations/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body: JSON.stringify({ baseVersion, record }),
    });
    if (!(response instanceof Response)) return response;
    if (response.status === 409 || response.status === 404) {
      const read = v.safeParse(conflict, await jsonOf(response));
      if (read.success) return { ok: false, kind: 'conflict', current: read.output.current ?? null };
    }
    return this.read(response, written, ({ version }) => ({ version }));
  }

  async deleteConversation(id: string): Promise<Result<object>> {
    const response = await this.send(`/api/conversations/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (!(response instanceof Response)) return response;
    // Deleted already (on another device): what this one wanted.
    if (response.status === 404) return { ok: true };
    return this.read(response, v.unknown(), () => ({}));
  }

  async settings(): Promise<Result<{ settings: ServerSettings }>> {
    return this.call('/api/settings', {}, storedSettings, (settings) => ({ settings }));
  }

  async putSettings(baseVersion: number, settings: Record<string, unknown>): Promise<SettingsWriteResult> {
    const response = await this.send('/api/settings', {
      method: 'PUT',
      body: JSON.stringify({ baseVersion, settings }),
    });
    if (!(response instanceof Response)) return response;
    if (response.status === 409) {
      const read = v.safeParse(settingsConflict, await jsonOf(response));
      if (read.success) return { ok: false, kind: 'conflict', current: read.output.current ?? null };
    }
    return this.read(response, written, ({ version }) => ({ version }));
  }

  /** The bytes of an attached file, for the conversation it is attached in. */
  async putAttachment(id: string, conversationId: string, name: string, blob: Blob): Promise<Result<object>> {
    const query = `conversation=${encodeURIComponent(conversationId)}&name=${encodeURIComponent(name)}`;
    const response = await this.send(`/api/attachments/${encodeURIComponent(id)}?${query}`, {
      method: 'PUT',
      body: blob,
      headers: { 'content-type': blob.type || 'application/octet-stream' },
    });
    return response instanceof Response ? this.read(response, v.unknown(), () => ({})) : response;
  }

  /** An attached file's bytes, as the server keeps them (none: not there). */
  async attachment(id: string): Promise<Blob | undefined> {
    const response = await this.send(`/api/attachments/${encodeURIComponent(id)}`, {});
    return response instanceof Response && response.ok ? response.blob() : undefined;
  }

  /** An attempt's recording (`{items, raw}`, as IndexedDB keeps it) or its request body (`{body}`). */
  async putAttemptRecord(
    kind: 'recordings' | 'requests',
    attemptId: string,
    conversationId: string,
    record: unknown,
  ): Promise<Result<object>> {
    const path = `/api/${kind}/${encodeURIComponent(attemptId)}?conversation=${encodeURIComponent(conversationId)}`;
    const response = await this.send(path, { method: 'PUT', body: JSON.stringify(record) });
    return response instanceof Response ? this.read(response, v.unknown(), () => ({})) : response;
  }

  /** The record of an attempt as the server keeps it, unchecked (the caller reads it as IndexedDB's); none: not there. */
  async attemptRecord(kind: 'recordings' | 'requests', attemptId: string): Promise<unknown> {
    const response = await this.send(`/api/${kind}/${encodeURIComponent(attemptId)}`, {});
    return response instanceof Response && response.ok ? jsonOf(response) : undefined;
  }

  private async call<S extends v.GenericSchema, T>(
    path: string,
    init: RequestInit,
    schema: S,
    take: (value: v.InferOutput<S>) => T,
  ): Promise<Result<T>> {
    const response = await this.send(path, init);
    return response instanceof Response ? this.read(response, schema, take) : response;
  }

  private async send(path: string, init: RequestInit): Promise<Response | ({ ok: false } & Failure)> {
    try {
      return await this.fetchFn(path, {
        ...init,
        headers: {
          accept: 'application/json',
          ...(typeof init.body === 'string' && { 'content-type': 'application/json' }),
          ...(init.headers as Record<string, string> | undefined),
        },
        credentials: 'same-origin',
      });
    } catch (error) {
      return {
        ok: false,
        kind: 'unreachable',
        reason: error instanceof Error ? error.message : String(error),
      };
    }
  }

  private async read<S extends v.GenericSchema, T>(
    response: Response,
    schema: S,
    take: (value: v.InferOutput<S>) => T,
  ): Promise<Result<T>> {
    const body = await jsonOf(response);
    if (response.status === 401) return { ok: false, kind: 'signed-out' };
    if (!response.ok) {
      const reason = errorOf(body) ?? `HTTP ${response.status}`;
      const passing = response.status >= 500 || response.status === 429 || response.status === 408;
      return { ok: false, kind: passing ? 'unreachable' : 'refused', reason };
    }
    const read = v.safeParse(schema, body);
    if (!read.success)
      return { ok: false, kind: 'unreachable', reason: 'The server’s answer was not what it should be.' };
    return { ok: true, ...take(read.output) };
  }
}

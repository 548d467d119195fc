import pg from 'pg';
import type { Database, ListenHandlers, Queryable, Transaction } from './database.ts';

/**
 * PostgreSQL through node-postgres: a pool for queries and transactions, and one connection of its own
 * that listens, brought back whenever it is lost (a restarted server, a proxy's idle timeout, an
 * administrator ending it). Several server processes can share the database: notifications reach all.
 */

/** Counts, sums and ms come back as numbers (node-postgres reads `bigint` as a string by default). */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A channel name that needs no quoting rules beyond double quotes, the same in both engines. */
export function checkChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

export interface PostgresOptions {
  url: string;
  poolSize?: number;
  /** Problems that do not stop the server (a lost connection, a reconnection): one line each, no secrets. */
  log: (line: string) => void;
}

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    query: async (sql, params = []) => (await client.query(sql, params as unknown[])).rows as unknown[],
  };
}

export function openPostgres({ url, poolSize = 10, log }: PostgresOptions): Database {
  const config: pg.ClientConfig = {
    connectionString: url,
    types,
    application_name: 'hopbase-chat',
    // A connection a NAT or a failover dropped without a word is found out, and the listener comes back.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  const pool = new pg.Pool({ ...config, max: poolSize });
  // An idle connection that breaks is dropped by the pool; without a listener the error would end the process.
  pool.on('error', (error) => log(`database: an idle connection failed (${error.message})`));
  const listener = new Listener(config, log);
  return {
    engine: 'postgres',
    query: queryable(pool).query,
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx: Transaction = {
          ...queryable(client),
          notify: async (channel, payload) => {
            await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
          },
        };
        const result = await work(tx);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => {
          broken = rollback;
        });
        throw error;
      } finally {
        // A connection whose rollback failed is in an unknown state: the pool closes it instead of reusing it.
        client.release(broken);
      }
    },
    listen: (channel, handlers) => listener.add(`"${checkChannel(channel)}"`, handlers),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

const firstRetryMs = 50;
const lastRetryMs = 5_000;

/** The connection that listens: one per Database, for every channel, reconnecting with backoff. */
class Listener {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly channels = new Map<string, Set<ListenHandlers>>();
  private retryMs = firstRetryMs;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly log: (line: string) => void,
  ) {}

  async add(quoted: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    const client = await this.connected();
    let set = this.channels.get(quoted);
    if (!set) {
      set = new Set();
      this.channels.set(quoted, set);
      await client.query(`LISTEN ${quoted}`);
    }
    set.add(handlers);
    return async () => {
      const current = this.channels.get(quoted);
      if (!current?.delete(handlers) || current.size > 0) return;
      this.channels.delete(quoted);
      await this.client?.query(`UNLISTEN ${quoted}`).catch(() => {});
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private connected(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    client.on('notification', ({ channel, payload }) => {
      for (const handlers of this.channels.get(`"${channel}"`) ?? []) handlers.message(payload ?? '');
    });
    // Lost only once it was ready: a connection that never came up is the caller's failure to handle.
    let live = false;
    const onLost = (error?: Error) => {
      if (!live) return;
      live = false;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      if (this.closed) return;
      this.log(`database: the listening connection was lost (${error?.message ?? 'closed'}); reconnecting`);
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      for (const quoted of this.channels.keys()) await client.query(`LISTEN ${quoted}`);
      if (this.closed) throw new Error('the database is closed');
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    live = true;
    return client;
  }

  private scheduleReconnect(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.connected().then(
        () => {
          this.retryMs = firstRetryMs;
          this.log('database: listening again');
          for (const set of this.channels.values()) for (const handlers of set) handlers.reconnected?.();
        },
        (error: Error) => {
          if (this.closed) return;
          this.log(`database: cannot listen yet (${error.message}); retrying`);
          this.retryMs = Math.min(this.retryMs * 2, lastRetryMs);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
  }
}

import { Attachments } from './attachments.ts';
import { ChangeFeed } from './changes.ts';
import { Conversations } from './conversations.ts';
import type { Database } from './database.ts';
import { defaultLimits, type StorageLimits } from './limits.ts';
import { migrate } from './migrate.ts';
import { type DatabaseConfig, openDatabase } from './open.ts';
import { Recordings, RequestBodies } from './recordings.ts';
import { RequestWindow } from './requestWindow.ts';
import { DEFAULT_SESSION_MS, Sessions } from './sessions.ts';
import { Settings } from './settings.ts';
import { SignIns } from './signIns.ts';
import { type DayRange, everyonesUsage, type PersonUsageTotals, Usage } from './usage.ts';
import { Users, userIdPattern } from './users.ts';

/**
 * The server's storage, opened once at start: the database (migrated), the people and their sessions,
 * each person's data through `forUser` (repositories bound to that person, whose methods take no user
 * id: none can be forgotten or swapped), and the feed of changes.
 */

/** One person's data, and nothing of anyone else's. */
export interface Person {
  readonly userId: string;
  readonly conversations: Conversations;
  readonly attachments: Attachments;
  readonly recordings: Recordings;
  readonly requests: RequestBodies;
  readonly settings: Settings;
  readonly usage: Usage;
  /** Their requests to a model in the last minute, for the per-person limit. */
  readonly recentRequests: RequestWindow;
}

/** What only an administrator sees. */
export interface AdminView {
  usage(range: DayRange): Promise<PersonUsageTotals[]>;
}

export interface StorageOptions {
  limits?: Partial<StorageLimits>;
  sessionMs?: number;
  log?: (line: string) => void;
}

export class Storage {
  readonly users: Users;
  readonly sessions: Sessions;
  readonly signIns: SignIns;
  readonly changes: ChangeFeed;
  /** What each piece a person stores may weigh: the routes refuse a larger body before reading it all. */
  readonly limits: StorageLimits;

  private constructor(
    readonly db: Database,
    options: StorageOptions,
  ) {
    this.users = new Users(db);
    this.sessions = new Sessions(db, options.sessionMs ?? DEFAULT_SESSION_MS);
    this.signIns = new SignIns(db);
    this.changes = new ChangeFeed(db, options.log);
    this.limits = { ...defaultLimits, ...options.limits };
  }

  /** Opens the database, brings its schema up to date (waiting for another process doing it) and listens. */
  static async open(config: DatabaseConfig, options: StorageOptions = {}): Promise<Storage> {
    const db = await openDatabase(config, options.log);
    try {
      await migrate(db);
      const storage = new Storage(db, options);
      if (db.engine === 'pglite') await db.query('ANALYZE');
      await storage.changes.start();
      return storage;
    } catch (error) {
      await db.close().catch(() => {});
      throw error;
    }
  }

  /** The person whose id a live session gave. */
  forUser(userId: string): Person {
    if (!userIdPattern.test(userId)) throw new Error('not a user id');
    const { db, limits } = this;
    return {
      userId,
      conversations: new Conversations(db, userId, limits),
      attachments: new Attachments(db, userId, limits),
      recordings: new Recordings(db, userId, limits),
      requests: new RequestBodies(db, userId, limits),
      settings: new Settings(db, userId, limits),
      usage: new Usage(db, userId),
      recentRequests: new RequestWindow(db, userId),
    };
  }

  /** The administrator's view, if the person is one (as their last sign-in said); undefined otherwise. */
  async forAdmin(userId: string): Promise<AdminView | undefined> {
    const user = await this.users.get(userId);
    if (!user?.isAdmin) return undefined;
    return { usage: (range) => everyonesUsage(this.db, range) };
  }

  /**
   * PGlite has no autovacuum (no background workers in WebAssembly): without this, updated rows' old
   * versions pile up and the planner, with no statistics, searches by reading every row (70 ms instead of
   * 4.5 for 3,000 conversations). The server runs it every so often; on PostgreSQL autovacuum does the work.
   */
  async maintain(): Promise<void> {
    if (this.db.engine === 'pglite') await this.db.query('VACUUM ANALYZE');
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.db.close();
  }
}

import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServerApp } from '../app.ts';
import { authConfigFromEnv } from '../auth/config.ts';
import { TeamAuth, type TeamConfig } from '../auth/teamAuth.ts';
import { DEFAULT_LIMITS } from '../config.ts';
import type { Storage } from '../db/storage.ts';
import { teamRoutes } from '../team.ts';
import { onePageDist } from '../testing.ts';

/** Helpers of the team API's tests: the production server in team mode, and people who use it. */

/** How the server knows people: a trusted proxy's header, or a session cookie (OpenID sign-in). */
export type SignInMode = 'header' | 'oidc';

export interface TeamApp {
  url: string;
  mode: SignInMode;
  storage: Storage;
  /** The headers that make a request this person's, from the app's own page. */
  as(email: string): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const modeEnv: Record<SignInMode, NodeJS.ProcessEnv> = {
  header: { HOPBASE_AUTH: 'header' },
  // Never asked: people here sign in by a session made in the database, as the callback makes it.
  oidc: {
    HOPBASE_AUTH: 'oidc',
    HOPBASE_PUBLIC_URL: 'http://127.0.0.1',
    HOPBASE_OIDC_ISSUER: 'https://idp.example.test',
    HOPBASE_OIDC_CLIENT_ID: 'hopbase-chat',
    HOPBASE_OIDC_CLIENT_SECRET: 'not-asked',
  },
};

/** The production server (`createServerApp`) in team mode on `storage`, its routes mounted as in production. */
export async function startTeamApp(storage: Storage, mode: SignInMode): Promise<TeamApp> {
  const auth = new TeamAuth(authConfigFromEnv(modeEnv[mode]) as TeamConfig, storage);
  const distDir = await onePageDist();
  const quiet = () => {};
  const app = createServerApp(
    {
      host: '127.0.0.1',
      port: 0,
      distDir,
      proxy: undefined,
      connectSrc: [],
      allowedHosts: [],
      limits: DEFAULT_LIMITS,
    },
    quiet,
    {
      auth,
      storage,
      limits: { requestsPerMinute: 0, tokensPerDay: 0 },
      routes: teamRoutes(auth, storage, quiet),
      close: async () => {},
    },
  );
  const url = await app.listen();
  const sessions = new Map<string, string>();
  return {
    url,
    mode,
    storage,
    async as(email) {
      const page = { origin: url, 'sec-fetch-site': 'same-origin' };
      if (mode === 'header') return { ...page, 'x-forwarded-email': email };
      let token = sessions.get(email);
      if (!token) {
        const user = await storage.users.signIn(
          { issuer: 'https://idp.example.test', subject: email },
          { email, displayName: email, isAdmin: false },
        );
        token = (await storage.sessions.create(user.id)).token;
        sessions.set(email, token);
      }
      return { ...page, cookie: `${auth.cookieName}=${token}` };
    },
    async close() {
      await app.close();
      await rm(distDir, { recursive: true, force: true });
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  text: string;
}

/**
 * One request exactly as written (the path is sent as is: fetch would normalise `..` and `%2e`). A change
 * stream is read up to its `ready` event (what was missed has been sent), then closed.
 */
export function send(
  base: string,
  method: string,
  path: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const answer = () => {
        const bytes = Buffer.concat(chunks);
        return { status: res.statusCode ?? 0, headers: res.headers, bytes, text: bytes.toString('utf8') };
      };
      const stream = String(res.headers['content-type']).startsWith('text/event-stream');
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (stream && answer().text.includes('event: ready')) {
          resolve(answer());
          req.destroy();
        }
      });
      res.on('end', () => resolve(answer()));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/server.ts';
import { waitFor } from '../../simulator/testing.ts';
import { startTimeout, testDatabases } from '../db/testing.ts';
import { openTeamServer, type TeamServer, teamSettingsFromEnv } from '../team.ts';
import { rawRequest } from '../testing.ts';
import { openStream, type RelayServer, relayHeaders, startRelayServer, textOf } from './testing.ts';

/**
 * Team mode's relay over real sockets: server processes on one database (two apps, each with its own
 * relay and heartbeat; on PostgreSQL each with its own connections too), a real simulator behind them,
 * people named by a trusted proxy's header. On PostgreSQL and PGlite.
 */

const alice = 'alice@example.test';
const mallory = 'mallory@example.test';
/** What every answer of Alice's says: in nothing Mallory gets. */
const secret = 'alice-relay-secret-7f3c';
const quick = { heartbeatMs: 100, staleMs: 1_000 };

describe.each(testDatabases())('the relay on $name', (database) => {
  let sim: RunningSimulator;
  const teams: TeamServer[] = [];
  let a: RelayServer;
  let b: RelayServer;
  /** A process that said it was alive once, at start, and never again. */
  let silent: RelayServer;
  let attempts = 0;
  const nextAttempt = () => `att_${database.name}_${++attempts}`;

  beforeAll(async () => {
    sim = await startSimulator({ deltaMs: 1, keepaliveMs: 60_000 });
    const settings = teamSettingsFromEnv({ HOPBASE_AUTH: 'header' });
    if (!settings) throw new Error('team mode expected');
    const config = await database.start();
    const open = async () => {
      const team = await openTeamServer({ ...settings, database: config }, () => {});
      teams.push(team);
      return team;
    };
    const first = await open();
    // PGlite is one process's: its servers share it. PostgreSQL: each server its own pool, as processes.
    const another = async () => (database.name === 'PGlite' ? first : await open());
    a = await startRelayServer({ gatewayUrl: sim.url, team: first, relay: quick });
    b = await startRelayServer({ gatewayUrl: sim.url, team: await another(), relay: quick });
    silent = await startRelayServer({
      gatewayUrl: sim.url,
      team: await another(),
      relay: { ...quick, heartbeatMs: 3_600_000 },
    });
  }, startTimeout);

  afterAll(async () => {
    for (const server of [a, b, silent]) await server?.close();
    for (const team of new Set(teams)) await team.close();
    await sim?.close();
    await database.stop();
  });

  const as = (email: string | undefined, url: string) => ({
    origin: url,
    'sec-fetch-site': 'same-origin',
    ...(email ? { 'x-forwarded-email': email } : {}),
  });
  const start = (on: RelayServer, attemptId: string, model = 'sim-long', email = alice) =>
    openStream(`${on.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...relayHeaders(on.url, attemptId), 'x-forwarded-email': email },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: secret }] }),
    });
  const resume = (on: RelayServer, attemptId: string, last: number, email = alice) =>
    openStream(`${on.url}/api/answers/${attemptId}/events`, {
      headers: { ...as(email, on.url), 'last-event-id': String(last) },
    });

  it('starts on one process, resumes on another mid-answer, live', async () => {
    const attemptId = nextAttempt();
    const page = await start(a, attemptId);
    await page.until(3);
    const other = await resume(b, attemptId, 3);
    expect(other.response.status).toBe(200);
    expect(other.response.headers.get('x-hopbase-relay')).toBe('1');
    // Events come to the other process while the answer still runs.
    await other.until(20);
    expect(page.frames.some((f) => f.event === 'end')).toBe(false);
    const [all, rest] = await Promise.all([page.ended, other.ended]);
    expect(all.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
    expect(rest).toEqual(all.slice(3));
    expect(textOf(all)).toContain('data: [DONE]');
  });

  it("records the answer's usage once, however many pages read it", async () => {
    const attemptId = nextAttempt();
    const page = await start(a, attemptId, 'sim-echo');
    await page.ended;
    await (await resume(b, attemptId, 0)).ended;
    await (await resume(a, attemptId, 0)).ended;
    const db = teams[0]?.storage.db;
    const count = async () =>
      (await db?.query('SELECT count(*)::int AS n FROM usage WHERE attempt_id = $1', [attemptId]))?.[0];
    // Written once the runner has read the answer to its end: soon after the page saw it.
    for (
      const deadline = Date.now() + 5000;
      ((await count()) as { n: number }).n === 0 && Date.now() < deadline;
    );
    expect(await count()).toEqual({ n: 1 });
  });

  it("a stop on another process stops the gateway's call", async () => {
    const attemptId = nextAttempt();
    const page = await start(a, attemptId);
    await page.until(3);
    const res = await rawRequest(b.url, `/api/answers/${attemptId}/stop`, {
      method: 'POST',
      headers: as(alice, b.url),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ outcome: 'stopped' });
    expect((await page.ended).at(-1)).toMatchObject({ event: 'end', data: { outcome: 'stopped' } });
    await waitFor(() => sim.simulator.activeGenerations() === 0, 5000);
  });

  it('an answer whose process stopped saying it is alive ends as lost for a reader', async () => {
    const attemptId = nextAttempt();
    const page = await start(silent, attemptId);
    await page.until(2);
    const reader = await resume(b, attemptId, 0);
    const frames = await reader.ended;
    expect(frames.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'lost' } });
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => i + 1));
    page.abort();
    await rawRequest(silent.url, `/api/answers/${attemptId}/stop`, {
      method: 'POST',
      headers: as(alice, silent.url),
    });
  });

  it('another person gets 404 for everything of Alice’s, and may use the same attempt id', async () => {
    const attemptId = nextAttempt();
    await (await start(a, attemptId, 'sim-echo')).ended;
    const never = nextAttempt();
    for (const on of [a, b]) {
      const calls = (id: string) => [
        rawRequest(on.url, `/api/answers/${id}/events`, { headers: as(mallory, on.url) }),
        rawRequest(on.url, `/api/answers/${id}/events`, {
          headers: { ...as(mallory, on.url), 'last-event-id': '1' },
        }),
        rawRequest(on.url, `/api/answers/${id}/stop`, { method: 'POST', headers: as(mallory, on.url) }),
        rawRequest(on.url, `/api/answers/${id}`, { method: 'DELETE', headers: as(mallory, on.url) }),
      ];
      const hers = await Promise.all(calls(attemptId));
      const none = await Promise.all(calls(never));
      for (const [i, res] of hers.entries()) {
        expect(res.status).toBe(404);
        expect(res.body).toBe(none[i]?.body);
        expect(res.body).not.toContain(secret);
      }
    }
    // Alice's answer is untouched.
    const still = await (await resume(a, attemptId, 0)).ended;
    expect(still.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
    // Attempt ids are per person: Mallory's own answer under the same id.
    const hers = await start(b, attemptId, 'sim-echo', mallory);
    expect(hers.response.status).toBe(200);
    await hers.ended;
  });

  it('without a session: 401 for every route, and no answer started', async () => {
    const attemptId = nextAttempt();
    const before = sim.simulator.requests().length;
    const res = await rawRequest(a.url, '/v1/chat/completions', {
      method: 'POST',
      headers: relayHeaders(a.url, attemptId),
      body: JSON.stringify({ model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(res.status).toBe(401);
    for (const [method, path] of [
      ['GET', `/api/answers/${attemptId}/events`],
      ['POST', `/api/answers/${attemptId}/stop`],
      ['DELETE', `/api/answers/${attemptId}`],
    ] as const) {
      const refused = await rawRequest(a.url, path, { method, headers: as(undefined, a.url) });
      expect(refused.status).toBe(401);
    }
    expect(sim.simulator.requests().length).toBe(before);
  });

  it('DELETE on one process: forgotten for all after the grace; a repeat start under the id is 409 until then', async () => {
    const attemptId = nextAttempt();
    await (await start(a, attemptId, 'sim-echo')).ended;
    const again = await rawRequest(b.url, '/v1/chat/completions', {
      method: 'POST',
      headers: { ...relayHeaders(b.url, attemptId), 'x-forwarded-email': alice },
      body: JSON.stringify({ model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(again.status).toBe(409);
    const res = await rawRequest(b.url, `/api/answers/${attemptId}`, {
      method: 'DELETE',
      headers: as(alice, b.url),
    });
    expect(res.status).toBe(204);
    const kept = await rawRequest(a.url, `/api/answers/${attemptId}/events`, { headers: as(alice, a.url) });
    expect(kept.status).toBe(200);
  });
});

describe('a person past their limits', () => {
  let sim: RunningSimulator;
  let team: TeamServer;
  let server: RelayServer;

  beforeAll(async () => {
    sim = await startSimulator({ deltaMs: 1, keepaliveMs: 60_000 });
    const settings = teamSettingsFromEnv({ HOPBASE_AUTH: 'header', HOPBASE_USER_REQUESTS_PER_MINUTE: '1' });
    if (!settings) throw new Error('team mode expected');
    team = await openTeamServer({ ...settings, database: { engine: 'pglite', dataDir: null } }, () => {});
    server = await startRelayServer({ gatewayUrl: sim.url, team, relay: quick });
  }, startTimeout);

  afterAll(async () => {
    await server?.close();
    await team?.close();
    await sim?.close();
  });

  it("a relayed start past the requests of a minute gets the protocol's 429 with Retry-After; nothing runs or is kept", async () => {
    const ask = (attemptId: string) =>
      rawRequest(server.url, '/v1/chat/completions', {
        method: 'POST',
        headers: { ...relayHeaders(server.url, attemptId), 'x-forwarded-email': alice },
        body: JSON.stringify({ model: 'sim-echo', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      });
    const first = await ask('att_first');
    expect(first.headers['x-hopbase-relay']).toBe('1');
    const before = sim.simulator.requests().length;
    const refused = await ask('att_second');
    expect(refused.status).toBe(429);
    expect(refused.headers['x-hopbase-relay']).toBeUndefined();
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    expect(sim.simulator.requests().length).toBe(before);
    const resumed = await rawRequest(server.url, '/api/answers/att_second/events', {
      headers: { origin: server.url, 'sec-fetch-site': 'same-origin', 'x-forwarded-email': alice },
    });
    expect(resumed.status).toBe(404);
  });
});

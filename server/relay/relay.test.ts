import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGateway, fromApp, startFakeGateway } from '../testing.ts';
import {
  openStream,
  type RelayFrame,
  type RelayServer,
  relayHeaders,
  startRelayServer,
  textOf,
} from './testing.ts';

/**
 * The relay's promise for recorded streams: the pieces joined are the gateway's body byte for byte, however
 * its bytes were split (characters of several bytes cut between chunks included), and a resume from any
 * event id gets exactly the events after it, in order, once.
 */

const FIXTURES = [
  'anthropic/web-search-citations.sse',
  'chat/deepseek-reasoning-content.sse',
  'chat/openrouter-comments-reasoning-details.sse',
  'responses/openai-reasoning-summary-function-call.sse',
  'synthetic/framing/bom.sse',
  'synthetic/framing/crlf.sse',
  'synthetic/framing/eof-without-final-blank-line.sse',
];

/** Characters of two, three and four bytes, and a stream of them. */
const MULTIBYTE = Buffer.from(
  `data: {"choices":[{"delta":{"content":"é 会話 🙂 ü€𝄞"}}]}\n\n${'data: {"x":"ä😀中"}\n\n'.repeat(20)}data: [DONE]\n\n`,
);

/**
 * Chunks of 1 to 7 bytes, over and over, so every character of several bytes is cut somewhere; in a
 * larger body, 1 to 7 times an odd number of bytes, so the cuts still fall anywhere, in about 150 chunks.
 */
function* pieces(body: Buffer): Generator<Buffer> {
  const unit = 1 + 2 * Math.floor(body.length / 1200);
  for (let at = 0, n = 1; at < body.length; at += n * unit, n = (n % 7) + 1)
    yield body.subarray(at, at + n * unit);
}

const bodies = new Map<string, Buffer>([
  ...FIXTURES.map((name) => [name, readFileSync(join('fixtures', name))] as const),
  ['multibyte', MULTIBYTE],
]);

let gateway: FakeGateway;
let server: RelayServer;

beforeAll(async () => {
  gateway = await startFakeGateway(async (seen, res) => {
    const body = bodies.get((JSON.parse(seen.body) as { model: string }).model) ?? Buffer.alloc(0);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const chunk of pieces(body)) {
      res.write(chunk);
      // Each chunk on the wire on its own: the relay must meet the cut characters.
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  server = await startRelayServer({ gatewayUrl: gateway.url });
});

afterAll(async () => {
  await server?.close();
  await gateway?.close();
});

describe.each([...bodies.keys()])('%s', (name) => {
  const body = bodies.get(name) as Buffer;
  const attemptId = `att_${name.replace(/\W/g, '_')}`;
  let all: RelayFrame[];

  beforeAll(async () => {
    const page = await openStream(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: relayHeaders(server.url, attemptId),
      body: JSON.stringify({ model: name, stream: true, messages: [] }),
    });
    all = await page.ended;
  });

  it('joins to the gateway body byte for byte, in events numbered from 1, then complete', () => {
    expect(Buffer.from(textOf(all)).equals(body)).toBe(true);
    expect(all.map((f) => f.id)).toEqual(all.map((_, i) => i + 1));
    expect(all.at(-1)).toMatchObject({ event: 'end', data: { outcome: 'complete' } });
    for (const frame of all.slice(0, -1)) expect(frame.data.t).toBeGreaterThanOrEqual(0);
    // The bytes came in many pieces; an event never holds a broken character.
    expect(all.length).toBeGreaterThan(10);
    expect(textOf(all)).not.toContain('\uFFFD');
  });

  it('resumes from every event id with exactly the events after it, in order, once', async () => {
    for (let last = 0; last <= all.length; last++) {
      const again = await openStream(`${server.url}/api/answers/${attemptId}/events`, {
        headers: { ...fromApp(server.url), 'last-event-id': String(last) },
      });
      const rest = await again.ended;
      expect(rest).toEqual(all.slice(last));
      expect(Buffer.from(textOf([...all.slice(0, last), ...rest])).equals(body)).toBe(true);
    }
  });
});

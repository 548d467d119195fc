import { request } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Storage } from '../db/storage.ts';
import { startTimeout } from '../db/testing.ts';
import { send, startTeamApp, type TeamApp } from './testing.ts';

/**
 * What a person keeps of their attempts and files through `/api/attachments`, `/api/recordings` and
 * `/api/requests`, through the production server in team mode, with small limits.
 */
const limits = { attachmentBytes: 4_000, recordingBytes: 6_000, requestBytes: 6_000 };

let storage: Storage;
let app: TeamApp;
let ann: Record<string, string>;

beforeAll(async () => {
  storage = await Storage.open({ engine: 'pglite', dataDir: null }, { limits });
  app = await startTeamApp(storage, 'header');
  ann = await app.as('ann@example.test');
}, startTimeout);

afterAll(async () => {
  await app?.close();
  await storage?.close();
});

const as = (method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}) =>
  send(app.url, method, path, { body, headers: { ...ann, ...headers } });
const putJson = (path: string, value: unknown, headers: Record<string, string> = {}) =>
  as('PUT', path, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
const errorOf = (answer: { text: string }) => (JSON.parse(answer.text) as { error: string }).error;

/** A body sent chunked, with no length said beforehand: only counting tells its size. */
function chunked(method: string, path: string, chunks: Buffer[], headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(app.url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      { hostname, port, path, method, headers: { ...ann, ...headers, 'transfer-encoding': 'chunked' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    // The server may answer (413) and close before every chunk is sent.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('attachments', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  it('are stored as sent and read back byte for byte, with their type and name', async () => {
    const stored = await as(
      'PUT',
      `/api/attachments/file_1?conversation=c1&name=${encodeURIComponent('Katze 🐱 "1".png')}`,
      png,
      {
        'content-type': 'image/png',
      },
    );
    expect(stored.status).toBe(200);
    expect(JSON.parse(stored.text)).toMatchObject({
      id: 'file_1',
      conversationId: 'c1',
      name: 'Katze 🐱 "1".png',
      mimeType: 'image/png',
      size: png.length,
    });
    const read = await as('GET', '/api/attachments/file_1');
    expect(read.status).toBe(200);
    expect(read.bytes.equals(png)).toBe(true);
    expect(read.headers['content-type']).toBe('image/png');
    expect(read.headers['content-length']).toBe(String(png.length));
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.headers['content-disposition']).toBe(
      `inline; filename="Katze _ _1_.png"; filename*=UTF-8''Katze%20%F0%9F%90%B1%20%221%22.png`,
    );
    const head = await as('HEAD', '/api/attachments/file_1');
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
  });

  it('keep the type itself (no parameters, lower case), and are downloaded unless an image the browser shows', async () => {
    const stored = await as(
      'PUT',
      `/api/attachments/file_txt?conversation=c1&name=${encodeURIComponent("it's (1).md")}`,
      'hello',
      {
        'content-type': 'Text/Markdown; charset=UTF-8',
      },
    );
    expect(JSON.parse(stored.text)).toMatchObject({ mimeType: 'text/markdown' });
    const read = await as('GET', '/api/attachments/file_txt');
    expect(read.headers['content-type']).toBe('text/markdown');
    expect(read.headers['content-disposition']).toBe(
      `attachment; filename="it's (1).md"; filename*=UTF-8''it%27s%20%281%29.md`,
    );
    // No name given: the id names the download.
    await as('PUT', '/api/attachments/file_noname?conversation=c1', 'x', { 'content-type': 'text/plain' });
    expect((await as('GET', '/api/attachments/file_noname')).headers['content-disposition']).toBe(
      `attachment; filename="file_noname"; filename*=UTF-8''file_noname`,
    );
  });

  it('are written once: the same bytes again are a no-op, other bytes under the id 409', async () => {
    const put = (body: string) =>
      as('PUT', '/api/attachments/file_once?conversation=c1&name=a.txt', body, {
        'content-type': 'text/plain',
      });
    expect((await put('first')).status).toBe(200);
    expect((await put('first')).status).toBe(200);
    const other = await put('second');
    expect(other.status).toBe(409);
    expect(errorOf(other)).toBe('A different file is stored under this id.');
    expect((await as('GET', '/api/attachments/file_once')).text).toBe('first');
  });

  it('are deleted, once', async () => {
    await as('PUT', '/api/attachments/file_del?conversation=c1', 'x', { 'content-type': 'text/plain' });
    expect((await as('DELETE', '/api/attachments/file_del')).status).toBe(204);
    expect((await as('GET', '/api/attachments/file_del')).status).toBe(404);
    expect((await as('DELETE', '/api/attachments/file_del')).status).toBe(404);
  });

  it('refuse what is not a file of a conversation in a media type, with the reason', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['/api/attachments/f?name=a', { 'content-type': 'text/plain' }, /\?conversation=/],
      ['/api/attachments/f?conversation=c1', {}, /media type/],
      ['/api/attachments/f?conversation=c1', { 'content-type': 'text' }, /media type/],
      ['/api/attachments/f?conversation=c1', { 'content-type': 'text/plain, text/html' }, /media type/],
      [
        `/api/attachments/${'f'.repeat(201)}?conversation=c1`,
        { 'content-type': 'text/plain' },
        /Not a valid/,
      ],
      [`/api/attachments/f?conversation=${'c'.repeat(201)}`, { 'content-type': 'text/plain' }, /Not a valid/],
      [
        `/api/attachments/f?conversation=c1&name=${'n'.repeat(1_001)}`,
        { 'content-type': 'text/plain' },
        /Not a valid/,
      ],
    ];
    for (const [path, headers, reason] of cases) {
      const answer = await as('PUT', path, 'x', headers);
      expect(answer.status, path).toBe(400);
      expect(errorOf(answer), path).toMatch(reason);
    }
    expect((await as('GET', '/api/attachments/f')).status).toBe(404);
  });

  it('above the limit get a clear 413, whether the length is said or only counted', async () => {
    const over = Buffer.alloc(limits.attachmentBytes + 1, 1);
    const path = '/api/attachments/file_big?conversation=c1';
    const said = await as('PUT', path, over, { 'content-type': 'image/png' });
    expect(said.status).toBe(413);
    expect(errorOf(said)).toBe('Too large to keep: a file may be at most 4000 bytes.');
    // The same bytes in two chunks, without their length: one byte over the limit, then exactly at it.
    const inTwo = (bytes: Buffer) =>
      chunked('PUT', path, [bytes.subarray(0, 2_000), bytes.subarray(2_000)], {
        'content-type': 'image/png',
      });
    const counted = await inTwo(over);
    expect(counted.status).toBe(413);
    const atLimit = await inTwo(over.subarray(1));
    expect(atLimit.status).toBe(200);
    expect((await as('GET', '/api/attachments/file_big')).bytes.length).toBe(limits.attachmentBytes);
  });

  it('may be sent gzip-compressed, and are kept unzipped; a bomb or another encoding is refused', async () => {
    const text = 'line\n'.repeat(700);
    const zipped = await as('PUT', '/api/attachments/file_gz?conversation=c1', gzipSync(text), {
      'content-type': 'text/plain',
      'content-encoding': 'gzip',
    });
    expect(zipped.status).toBe(200);
    expect((await as('GET', '/api/attachments/file_gz')).text).toBe(text);
    const bomb = await as(
      'PUT',
      '/api/attachments/file_bomb?conversation=c1',
      gzipSync(Buffer.alloc(10_000_000)),
      {
        'content-type': 'text/plain',
        'content-encoding': 'gzip',
      },
    );
    expect(bomb.status).toBe(413);
    const broken = await as('PUT', '/api/attachments/file_bad?conversation=c1', 'not gzip', {
      'content-type': 'text/plain',
      'content-encoding': 'gzip',
    });
    expect([broken.status, errorOf(broken)]).toEqual([
      400,
      'Not a valid request: the body is not gzip data.',
    ]);
    const brotli = await as('PUT', '/api/attachments/file_br?conversation=c1', 'x', {
      'content-type': 'text/plain',
      'content-encoding': 'br',
    });
    expect(brotli.status).toBe(415);
    for (const id of ['file_bomb', 'file_bad', 'file_br'])
      expect((await as('GET', `/api/attachments/${id}`)).status).toBe(404);
  });
});

describe('recordings', () => {
  const event = (t: number, data: string) => ({ t, kind: 'event', event: 'message', data });
  const trace = { items: [event(1, '{"a":1}')], raw: 'data: {"a":1}\n\n' };

  it('are stored and read back as the browser keeps them, and may grow while their attempt streams', async () => {
    expect((await putJson('/api/recordings/t1?conversation=c1', trace)).status).toBe(204);
    expect(JSON.parse((await as('GET', '/api/recordings/t1')).text)).toEqual(trace);
    const grown = {
      items: [...trace.items, { t: 2, kind: 'comment', event: '', data: ' keepalive\u0000' }],
      raw: `${trace.raw}: keepalive\u0000\n\n`,
    };
    expect((await putJson('/api/recordings/t1?conversation=c1', grown)).status).toBe(204);
    expect(JSON.parse((await as('GET', '/api/recordings/t1')).text)).toEqual(grown);
    const rewritten = await putJson('/api/recordings/t1?conversation=c1', trace);
    expect([rewritten.status, errorOf(rewritten)]).toEqual([
      409,
      'A different recording is stored under this id.',
    ]);
    expect((await putJson('/api/recordings/t1?conversation=c2', grown)).status).toBe(409);
    expect(JSON.parse((await as('GET', '/api/recordings/t1')).text)).toEqual(grown);
  });

  it('are compressed both ways when the client can', async () => {
    const long = {
      items: Array.from({ length: 40 }, (_, i) => event(i, `{"delta":"word ${i}"}`)),
      raw: 'data: x\n\n'.repeat(40),
    };
    const zipped = await as('PUT', '/api/recordings/t_gz?conversation=c1', gzipSync(JSON.stringify(long)), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(zipped.status).toBe(204);
    const read = await as('GET', '/api/recordings/t_gz', undefined, { 'accept-encoding': 'gzip' });
    expect(read.headers['content-encoding']).toBe('gzip');
    expect(read.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(read.bytes).toString())).toEqual(long);
    expect(read.bytes.length).toBeLessThan(JSON.stringify(long).length / 3);
    const plain = await as('GET', '/api/recordings/t_gz');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.text)).toEqual(long);
  });

  it('refuse what is not a recording, with the reason', async () => {
    const cases: [unknown, RegExp][] = [
      [{ items: [] }, /raw/i],
      [{ raw: '' }, /items|array/i],
      [{ items: [{ t: 'soon', kind: 'event', event: '', data: '' }], raw: '' }, /recorded event/],
      [{ items: [{ t: 1, kind: 'shout', event: '', data: '' }], raw: '' }, /recorded event/],
      [{ items: [event(Number.NaN, '')], raw: '' }, /recorded event/],
      [[], /items/],
      ['text', /Object/],
    ];
    for (const [body, reason] of cases) {
      const answer = await putJson('/api/recordings/t_bad?conversation=c1', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(answer), JSON.stringify(body)).toMatch(reason);
    }
    for (const [body, type] of [
      ['{"items":', 'application/json'],
      [Buffer.from([0x7b, 0xff, 0x7d]), 'application/json'],
    ] as const) {
      const answer = await as('PUT', '/api/recordings/t_bad?conversation=c1', body, { 'content-type': type });
      expect([answer.status, errorOf(answer)]).toEqual([
        400,
        'Not a valid request: the body is not JSON in UTF-8.',
      ]);
    }
    expect((await putJson('/api/recordings/t_bad', trace)).status).toBe(400);
    expect((await as('GET', '/api/recordings/t_bad')).status).toBe(404);
  });

  it('above the limit get a clear 413', async () => {
    const big = { items: [], raw: 'x'.repeat(limits.recordingBytes) };
    const answer = await putJson('/api/recordings/t_big?conversation=c1', big);
    expect([answer.status, errorOf(answer)]).toEqual([
      413,
      'Too large to keep: a recording may be at most 6000 bytes.',
    ]);
    // Sent zipped, small on the wire: the storage still weighs what it would keep.
    const zipped = await as('PUT', '/api/recordings/t_big?conversation=c1', gzipSync(JSON.stringify(big)), {
      'content-encoding': 'gzip',
    });
    expect(zipped.status).toBe(413);
  });
});

describe('request bodies', () => {
  const request = {
    body: {
      model: 'gpt-test',
      stream: true,
      messages: [{ role: 'user', content: 'Hi ⟦attachment:file_1⟧' }],
    },
  };

  it('are written once and read back exactly: the same again is a no-op, another body 409', async () => {
    expect((await putJson('/api/requests/t1?conversation=c1', request)).status).toBe(204);
    expect((await putJson('/api/requests/t1?conversation=c1', request)).status).toBe(204);
    const other = await putJson('/api/requests/t1?conversation=c1', {
      body: { ...request.body, model: 'other' },
    });
    expect([other.status, errorOf(other)]).toEqual([
      409,
      'A different request body is stored under this id.',
    ]);
    expect((await putJson('/api/requests/t1?conversation=c2', request)).status).toBe(409);
    expect((await as('GET', '/api/requests/t1')).text).toBe(JSON.stringify(request));
  });

  it('refuse what is not a request body, or nests too deep', async () => {
    const deep = `{"body":{"deep":${'['.repeat(2_000)}${']'.repeat(2_000)}}}`;
    for (const [text, reason] of [
      ['{}', /body/],
      ['{"body":[]}', /JSON object/],
      ['{"body":"text"}', /JSON object/],
      [deep, /nested at most 512 levels/],
    ] as const) {
      const answer = await as('PUT', '/api/requests/t_bad?conversation=c1', text, {
        'content-type': 'application/json',
      });
      expect(answer.status, text.slice(0, 30)).toBe(400);
      expect(errorOf(answer)).toMatch(reason);
    }
    expect((await as('GET', '/api/requests/t_bad')).status).toBe(404);
  });
});

describe('a deleted conversation', () => {
  it('takes its files, recordings and request bodies with it, and none is kept for it after', async () => {
    const at = (kind: string, id: string) => `/api/${kind}/${id}?conversation=c_gone`;
    await as('PUT', at('attachments', 'file_gone'), 'x', { 'content-type': 'text/plain' });
    await putJson(at('recordings', 't_gone'), { items: [], raw: '' });
    await putJson(at('requests', 't_gone'), { body: { model: 'm' } });
    expect((await as('DELETE', '/api/conversations/c_gone')).status).toBe(200);
    for (const path of ['/api/attachments/file_gone', '/api/recordings/t_gone', '/api/requests/t_gone'])
      expect((await as('GET', path)).status, path).toBe(404);
    // A device that has not heard of the deletion yet uploads in vain.
    for (const answer of [
      await as('PUT', at('attachments', 'file_late'), 'x', { 'content-type': 'text/plain' }),
      await putJson(at('recordings', 't_late'), { items: [], raw: '' }),
      await putJson(at('requests', 't_late'), { body: { model: 'm' } }),
    ]) {
      expect(answer.status).toBe(410);
      expect(errorOf(answer)).toMatch(/^Its conversation was deleted/);
    }
  });
});

describe('a body sent without a length', () => {
  it('is counted and read on every route that takes one, the team API’s own included', async () => {
    const json = (value: unknown) => [Buffer.from(JSON.stringify(value))];
    expect(
      (
        await chunked(
          'PUT',
          '/api/attachments/file_ch?conversation=c1',
          [Buffer.from('a'), Buffer.from('b')],
          { 'content-type': 'text/plain' },
        )
      ).status,
    ).toBe(200);
    expect(
      (await chunked('PUT', '/api/recordings/t_ch?conversation=c1', json({ items: [], raw: '' }))).status,
    ).toBe(204);
    expect((await chunked('PUT', '/api/requests/t_ch?conversation=c1', json({ body: {} }))).status).toBe(204);
    expect((await chunked('PUT', '/api/settings', json({ baseVersion: 0, settings: {} }))).status).toBe(200);
    expect((await as('DELETE', '/api/conversations/c_never')).status).toBe(200);
  });
});

/**
 * The UI benchmark's server, on 127.0.0.1 only: the built app and the reference page as static files,
 * and a `/v1` that streams the benchmark's answers in the Chat Completions format at a set pace. The
 * model id picks the answer and the pace:
 *   bench-paced      the long answer at 2,000 deltas per second
 *   bench-max        the long answer as fast as the socket takes it
 *   bench-medium     a ~5 kB answer (the 50-answer conversation; its number from the request's message
 *                    count), as fast as possible
 *   bench-hostile-X  a hostile input (quotes-5000, list-500, code-100k), as fast as possible
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { deltas, hostile, longAnswer, mediumAnswer } from './document.ts';

export const PACED_RATE = 2_000;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

function serveFile(root: string, url: string, res: ServerResponse): boolean {
  const clean = path.normalize(decodeURIComponent(url.split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
  let file = path.join(root, clean);
  if (!file.startsWith(root)) return false;
  if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
  if (!existsSync(file)) return false;
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
  return true;
}

function answerFor(model: string, messages: number): { text: string; paced: boolean } {
  if (model === 'bench-paced') return { text: longAnswer(), paced: true };
  if (model === 'bench-max') return { text: longAnswer(), paced: false };
  if (model === 'bench-medium') return { text: mediumAnswer(messages), paced: false };
  const bad = /^bench-hostile-(.+)$/.exec(model);
  if (bad && hostile[bad[1]!]) return { text: hostile[bad[1]!]!(), paced: false };
  return { text: 'Unknown benchmark model.', paced: false };
}

const MODELS = [
  'bench-paced',
  'bench-max',
  'bench-medium',
  ...Object.keys(hostile).map((k) => `bench-hostile-${k}`),
];

function chunk(content: string | null, finish: string | null, usage?: object): string {
  const body = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'bench',
    choices: usage ? [] : [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

async function stream(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let raw = '';
  for await (const piece of req) raw += piece;
  const { model, messages } = JSON.parse(raw) as { model: string; messages?: unknown[] };
  const { text, paced } = answerFor(model, messages?.length ?? 0);
  const pieces = deltas(text);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const start = performance.now();
  const BATCH = paced ? 4 : 400;
  for (let i = 0; i < pieces.length && !closed; i += BATCH) {
    const out = pieces.slice(i, i + BATCH).map((p) => chunk(p, null));
    if (!res.write(out.join(''))) await new Promise((r) => res.once('drain', r));
    if (paced) {
      // On schedule: delta i + BATCH is due at (i + BATCH) / rate seconds.
      const due = start + ((i + BATCH) / PACED_RATE) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
  res.write(chunk(null, 'stop'));
  res.write(
    chunk(null, null, {
      prompt_tokens: 10,
      completion_tokens: pieces.length,
      total_tokens: pieces.length + 10,
    }),
  );
  res.end('data: [DONE]\n\n');
}

/** Serves `appDir` at `/`, `referenceDir` at `/reference/`, and the paced `/v1`. */
export function startServer(
  appDir: string,
  referenceDir: string,
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url.startsWith('/v1/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'bench' })),
        }),
      );
      return;
    }
    if (req.method === 'POST' && url.startsWith('/v1/chat/completions')) {
      stream(req, res).catch(() => res.destroy());
      return;
    }
    if (url.startsWith('/reference/') && serveFile(referenceDir, url.slice('/reference'.length), res)) return;
    if (serveFile(appDir, url, res)) return;
    // The app's own routes fall back to its page.
    if (!url.startsWith('/assets/') && serveFile(appDir, '/index.html', res)) return;
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({ server, url: `http://127.0.0.1:${actual}` });
    });
  });
}

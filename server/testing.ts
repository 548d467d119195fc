import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Helpers shared by the server's tests. Everything listens on 127.0.0.1, port 0. */

/** The headers a browser puts on the app's own requests (POST: Origin; all: Sec-Fetch-Site). */
export function fromApp(url: string): Record<string, string> {
  return { origin: url, 'sec-fetch-site': 'same-origin' };
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes as sent (still compressed, if it was). */
  bytes: Buffer;
}

/**
 * A request exactly as written: fetch() normalises the path (`..`, `%2e`) and may not set Host or
 * Content-Length; node:http sends what it is given.
 */
export function rawRequest(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      // A connection of its own: a refused request's unread body must not spoil the next request.
      { hostname, port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeGateway {
  url: string;
  seen: SeenRequest[];
  /** Requests whose response has not finished, and whether the client went away. */
  open: number;
  closedEarly: number;
  close(): Promise<void>;
}

/** A scripted upstream: `respond` writes the answer; it sees every request the proxy sends. */
export async function startFakeGateway(
  respond: (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>,
): Promise<FakeGateway> {
  const gateway: FakeGateway = {
    url: '',
    seen: [],
    open: 0,
    closedEarly: 0,
    close: async () => {},
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    const seen = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    gateway.seen.push(seen);
    gateway.open++;
    res.on('close', () => {
      gateway.open--;
      if (!res.writableFinished) gateway.closedEarly++;
    });
    await respond(seen, res, req);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  gateway.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  gateway.close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return gateway;
}

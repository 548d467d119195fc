import { mkdtemp, writeFile } from 'node:fs/promises';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Another loopback address (127.0.0.2, …) to look like another client. */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      // A connection of its own: a refused request's unread body must not spoil the next request.
      {
        hostname,
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
        localAddress: options.localAddress,
      },
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
    try {
      for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
    } catch {
      // The proxy cancelled the request before its body was all sent: nothing to answer.
      return;
    }
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

/** A connection written by hand: requests the way a broken or hostile client sends them. */
export interface RawSocket {
  write(data: string | Buffer): void;
  /** Closes our side abruptly (RST), as a client that goes away does. */
  destroy(): void;
  /** What the server has sent so far. */
  received(): string;
  /** Everything the server sent until it closed the connection. */
  readonly closed: Promise<string>;
}

export function openSocket(base: string, options: { localAddress?: string } = {}): Promise<RawSocket> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = new Promise<string>((done) => {
      socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')));
    });
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        write: (data) => {
          if (!socket.destroyed) socket.write(data);
        },
        destroy: () => socket.resetAndDestroy(),
        received: () => Buffer.concat(chunks).toString('utf8'),
        closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** The head of an HTTP/1.1 request, as a client writes it before the body. */
export function requestHead(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): string {
  const lines = [`${method} ${path} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** A built app of one page, for the tests of the server around it (they remove it when done). */
export async function onePageDist(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hopbase-dist-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>HopBase Chat</title>');
  return dir;
}

import type { ProtocolAdapter } from './protocols/adapter.ts';

/**
 * An attempt's request written as code a person can run ("View code"): the same path, the same JSON value,
 * and the key read from the environment, never written in. Pure text in, text out.
 */

/** The languages, in the order the dialog's tabs show them. */
export const codeLanguages = ['curl', 'python', 'typescript', 'http'] as const;
export type CodeLanguage = (typeof codeLanguages)[number];

/** Where every snippet reads the key from. */
export const apiKeyVariable = 'HOPBASE_API_KEY';

export interface CodeRequest {
  /** The gateway's `/v1` base, absolute: `https://gateway.example.com/v1`. */
  base: string;
  /** The protocol's path under it: `/chat/completions`. */
  path: string;
  /** The headers sent besides the key's: the content type and the protocol's own. */
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Stands for the key inside the adapter's credential headers until each language writes its variable. */
const keyMark = '\u0000hopbase-key\u0000';

/** `request` in `language`, sent with `adapter`'s own credential headers. */
export function codeSnippet(
  language: CodeLanguage,
  adapter: ProtocolAdapter<unknown>,
  request: CodeRequest,
): string {
  // The JSON value as sent: what JSON.stringify keeps (no `undefined`, a NaN as null).
  const body = JSON.parse(JSON.stringify(request.body)) as Record<string, unknown>;
  const url = request.base.replace(/\/+$/, '') + request.path;
  const headers = { ...request.headers, ...adapter.credentials.key(keyMark) };
  switch (language) {
    case 'curl':
      return curl(url, headers, body);
    case 'http':
      return rawHttp(url, headers, body);
    case 'python':
      return python(adapter, request.base, body);
    case 'typescript':
      return typescript(adapter, request.base, body);
  }
}

/** A word the shell passes on exactly as written: single quotes, where only `'` itself needs care. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A header value with the key in it, as one shell word: in double quotes when nothing else in it means
 * anything there (the common `"authorization: Bearer $HOPBASE_API_KEY"`), else single-quoted pieces.
 */
function shellWordWithKey(text: string): string {
  const pieces = text.split(keyMark);
  if (pieces.length === 1) return shellQuote(text);
  if (pieces.every((piece) => !/["\\$`!]/.test(piece))) {
    return `"${pieces.reduce((word, piece) => `${word}${keyReference(piece)}${piece}`)}"`;
  }
  return pieces.map((piece) => (piece ? shellQuote(piece) : '')).join(`"$${apiKeyVariable}"`);
}

/** `$HOPBASE_API_KEY`, braced when the text after it would otherwise lengthen the name. */
function keyReference(after: string): string {
  return /^[A-Za-z0-9_]/.test(after) ? `\${${apiKeyVariable}}` : `$${apiKeyVariable}`;
}

/** The body as the snippets show it: two-space JSON. */
function prettyJson(body: unknown): string {
  return JSON.stringify(body, null, 2);
}

/**
 * The body goes in on standard input from a quoted here-document: the shell changes nothing in it (no `$`,
 * backtick or backslash is read), whatever the text holds, and curl sends it as it is, plus the line
 * feed that ends the document (outside the JSON value).
 */
function curl(url: string, headers: Record<string, string>, body: unknown): string {
  const json = prettyJson(body);
  const lines = new Set(json.split('\n'));
  let end = 'JSON';
  while (lines.has(end)) end += '_';
  return [
    `curl ${shellQuote(url)} \\`,
    '  --no-buffer \\',
    ...Object.entries(headers).map(([name, value]) => `  -H ${shellWordWithKey(`${name}: ${value}`)} \\`),
    `  --data-binary @- <<'${end}'`,
    json,
    end,
    '',
  ].join('\n');
}

function rawHttp(url: string, headers: Record<string, string>, body: unknown): string {
  const target = new URL(url);
  const json = prettyJson(body);
  const lines = Object.entries({
    host: target.host,
    ...headers,
    'content-length': String(new TextEncoder().encode(json).length),
  }).map(
    ([name, value]) =>
      `${name}: ${value.split(keyMark).reduce((all, piece) => `${all}$${apiKeyVariable}${piece}`)}`,
  );
  return [`POST ${target.pathname}${target.search} HTTP/1.1`, ...lines, '', json].join('\n');
}

/**
 * The base URL the SDK is given: the SDK that puts `/v1` before its paths itself gets the gateway's base
 * without it. Null: that SDK cannot reach a gateway whose base does not end in `/v1`.
 */
function sdkBase(adapter: ProtocolAdapter<unknown>, base: string): string | null {
  const trimmed = base.replace(/\/+$/, '');
  if (!adapter.sdk.addsV1) return trimmed;
  return trimmed.endsWith('/v1') ? trimmed.slice(0, -'/v1'.length) : null;
}

/** Why the base URL below is not the gateway's, in a comment; nothing when it is. */
function baseNote(adapter: ProtocolAdapter<unknown>, base: string, comment: string): string[] {
  if (sdkBase(adapter, base) !== null) return [];
  return [
    `${comment} This SDK adds /v1 before ${adapter.path} itself, and this gateway's base URL does not end in /v1:`,
    `${comment} give the client the address under which /v1${adapter.path} answers.`,
  ];
}

/** A JSON value as a Python literal that evaluates to the same value (dicts keep their order). */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  // JSON's string escapes (\" \\ \n \uXXXX …) mean the same in a Python string literal.
  if (typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}    `;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${pythonLiteral(item, inner)}`)
    : Object.entries(value).map(
        ([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`,
      );
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return items.length === 0 ? `${open}${close}` : `${open}\n${items.join(',\n')},\n${indent}${close}`;
}

/** Whether the request asks for a stream of events (every request the app sends does). */
const streams = (body: Record<string, unknown>) => body.stream === true;

function python(adapter: ProtocolAdapter<unknown>, base: string, body: Record<string, unknown>): string {
  const { sdk } = adapter;
  const result = streams(body) ? 'stream' : 'response';
  return [
    'import os',
    '',
    `from ${sdk.python} import ${sdk.client}`,
    '',
    ...baseNote(adapter, base, '#'),
    `client = ${sdk.client}(`,
    `    base_url=${JSON.stringify(sdkBase(adapter, base) ?? base)},`,
    `    api_key=os.environ[${JSON.stringify(apiKeyVariable)}],`,
    ')',
    '',
    `body = ${pythonLiteral(body)}`,
    '',
    `${result} = client.${sdk.create}(**body)`,
    ...(streams(body) ? ['for event in stream:', '    print(event)'] : ['print(response)']),
    '',
  ].join('\n');
}

/**
 * The body as a JavaScript object literal: JSON is one, but for a `"__proto__"` key, which in a literal
 * sets the prototype instead of a property (a computed key is a property).
 */
function objectLiteral(body: unknown): string {
  return prettyJson(body).replace(/^(\s*)"__proto__":/gm, '$1["__proto__"]:');
}

function typescript(adapter: ProtocolAdapter<unknown>, base: string, body: Record<string, unknown>): string {
  const { sdk } = adapter;
  const result = streams(body) ? 'stream' : 'response';
  return [
    `import ${sdk.client} from ${JSON.stringify(sdk.npm)};`,
    '',
    ...baseNote(adapter, base, '//'),
    `const client = new ${sdk.client}({`,
    `  baseURL: ${JSON.stringify(sdkBase(adapter, base) ?? base)},`,
    `  apiKey: process.env.${apiKeyVariable},`,
    '});',
    '',
    // Its own constant, cast: the request is the app's exactly, and an SDK's types can be narrower than its API.
    `const body = ${objectLiteral(body)};`,
    '',
    `const ${result} = await client.${sdk.create}(body as ${sdk.params}${streams(body) ? 'Streaming' : 'NonStreaming'});`,
    ...(streams(body)
      ? ['', 'for await (const event of stream) {', '  console.log(event);', '}']
      : ['console.log(response);']),
    '',
  ].join('\n');
}

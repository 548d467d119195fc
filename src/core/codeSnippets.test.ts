import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { type CodeRequest, codeSnippet, pythonLiteral, shellQuote } from './codeSnippets.ts';
import { adapters, buildRequest } from './protocols/index.ts';
import { shellTexts } from './testing/shellTexts.ts';
import type { Protocol } from './turn.ts';

const base = 'https://gateway.example.com/v1';

function requestFor(protocol: Protocol, text: string): CodeRequest {
  const { path, headers, body } = buildRequest(protocol, {
    model: 'sim-echo',
    messages: [{ role: 'user', text }],
  });
  return { base, path, headers, body };
}

describe('codeSnippet, per protocol', () => {
  it('writes Chat Completions as cURL, exactly', () => {
    const body = { model: 'sim-echo', messages: [{ role: 'user', content: 'Hi' }], stream: true };
    const request = {
      base,
      path: '/chat/completions',
      headers: { 'content-type': 'application/json' },
      body,
    };
    expect(
      codeSnippet('curl', adapters.chat, request),
    ).toBe(`curl 'https://gateway.example.com/v1/chat/completions' \\
  --no-buffer \\
  -H 'content-type: application/json' \\
  -H "authorization: Bearer $HOPBASE_API_KEY" \\
  --data-binary @- <<'JSON'
{
  "model": "sim-echo",
  "messages": [
    {
      "role": "user",
      "content": "Hi"
    }
  ],
  "stream": true
}
JSON
`);
  });

  it('writes Anthropic Messages as raw HTTP, with its length in bytes', () => {
    const snippet = codeSnippet('http', adapters.messages, requestFor('messages', 'é'));
    const [head, json] = snippet.split('\n\n') as [string, string];
    expect(head.split('\n')).toEqual([
      'POST /v1/messages HTTP/1.1',
      'host: gateway.example.com',
      'content-type: application/json',
      'anthropic-version: 2023-06-01',
      'x-api-key: $HOPBASE_API_KEY',
      `content-length: ${Buffer.byteLength(json)}`,
    ]);
    expect(JSON.parse(json)).toEqual(requestFor('messages', 'é').body);
  });

  // One line per protocol and language: the SDK, its client, its base URL, its call, its key.
  it.each([
    [
      'chat',
      'python',
      'from openai import OpenAI',
      'base_url="https://gateway.example.com/v1",',
      'stream = client.chat.completions.create(**body)',
    ],
    [
      'responses',
      'python',
      'from openai import OpenAI',
      'base_url="https://gateway.example.com/v1",',
      'stream = client.responses.create(**body)',
    ],
    [
      'messages',
      'python',
      'from anthropic import Anthropic',
      'base_url="https://gateway.example.com",',
      'stream = client.messages.create(**body)',
    ],
    [
      'chat',
      'typescript',
      'import OpenAI from "openai";',
      'baseURL: "https://gateway.example.com/v1",',
      'const stream = await client.chat.completions.create(body as OpenAI.Chat.ChatCompletionCreateParamsStreaming);',
    ],
    [
      'responses',
      'typescript',
      'import OpenAI from "openai";',
      'baseURL: "https://gateway.example.com/v1",',
      'const stream = await client.responses.create(body as OpenAI.Responses.ResponseCreateParamsStreaming);',
    ],
    [
      'messages',
      'typescript',
      'import Anthropic from "@anthropic-ai/sdk";',
      'baseURL: "https://gateway.example.com",',
      'const stream = await client.messages.create(body as Anthropic.MessageCreateParamsStreaming);',
    ],
  ] as const)('%s in %s: %s', (protocol, language, importLine, baseLine, callLine) => {
    const lines = codeSnippet(language, adapters[protocol], requestFor(protocol, 'Hi')).split('\n');
    expect(lines).toContain(importLine);
    expect(lines.map((line) => line.trim())).toContain(baseLine);
    expect(lines).toContain(callLine);
    expect(lines.map((line) => line.trim())).toContain(
      language === 'python'
        ? 'api_key=os.environ["HOPBASE_API_KEY"],'
        : 'apiKey: process.env.HOPBASE_API_KEY,',
    );
  });

  it.each([
    ['chat', '-H "authorization: Bearer $HOPBASE_API_KEY" \\'],
    ['responses', '-H "authorization: Bearer $HOPBASE_API_KEY" \\'],
    ['messages', '-H "x-api-key: $HOPBASE_API_KEY" \\'],
    ['messages', "-H 'anthropic-version: 2023-06-01' \\"],
  ] as const)('%s cURL sends %s', (protocol, line) => {
    const lines = codeSnippet('curl', adapters[protocol], requestFor(protocol, 'Hi')).split('\n');
    expect(lines.map((l) => l.trim())).toContain(line);
    // A browser's header is no business of a script's.
    expect(lines.join('\n')).not.toContain('dangerous-direct-browser-access');
  });

  it('takes the key header from the adapter, whatever it is', () => {
    const odd = {
      ...adapters.chat,
      credentials: { family: 'x', key: (key: string) => ({ 'x-key': `k=${key}; v="1"` }) },
    };
    const request = requestFor('chat', 'Hi');
    expect(codeSnippet('curl', odd, request)).toContain(`-H 'x-key: k='"$HOPBASE_API_KEY"'; v="1"' \\`);
    expect(codeSnippet('http', odd, request)).toContain('x-key: k=$HOPBASE_API_KEY; v="1"');
    const glued = { ...odd, credentials: { family: 'x', key: (key: string) => ({ 'x-key': `${key}tail` }) } };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${…}, as the command writes it
    expect(codeSnippet('curl', glued, request)).toContain('-H "x-key: ${HOPBASE_API_KEY}tail" \\');
  });

  it('says so when the Anthropic SDK cannot reach a base without /v1', () => {
    const request = { ...requestFor('messages', 'Hi'), base: 'https://gw.example.com/anthropic' };
    const snippet = codeSnippet('python', adapters.messages, request);
    expect(snippet).toContain('# This SDK adds /v1 before /messages itself');
    expect(snippet).toContain('base_url="https://gw.example.com/anthropic",');
  });

  it('prints the answer when the request asks for no stream', () => {
    const request = { ...requestFor('chat', 'Hi'), body: { model: 'm', messages: [] } };
    expect(codeSnippet('python', adapters.chat, request)).toContain(
      'response = client.chat.completions.create(**body)\nprint(response)',
    );
    expect(codeSnippet('typescript', adapters.chat, request)).toContain(
      'create(body as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);\nconsole.log(response);',
    );
  });

  it('writes a "__proto__" key as a property in TypeScript', () => {
    const body = JSON.parse('{"schema":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
    const request = { ...requestFor('chat', 'Hi'), body };
    const snippet = codeSnippet('typescript', adapters.chat, request);
    expect(snippet).toContain('    ["__proto__"]: {');
    const literal = snippet.slice(
      snippet.indexOf('const body = ') + 'const body = '.length,
      snippet.indexOf('\n};\n') + 2,
    );
    expect(JSON.stringify(new Function(`return ${literal}`)())).toBe(JSON.stringify(request.body));
  });
});

describe('pythonLiteral', () => {
  it.each([
    [null, 'None'],
    [true, 'True'],
    [false, 'False'],
    [1.5, '1.5'],
    ['a"b\n', '"a\\"b\\n"'],
    [[], '[]'],
    [{}, '{}'],
    [[1, null], '[\n    1,\n    None,\n]'],
    [{ a: { b: [true] } }, '{\n    "a": {\n        "b": [\n            True,\n        ],\n    },\n}'],
  ])('%j → %s', (value, literal) => {
    expect(pythonLiteral(value)).toBe(literal);
  });
});

describe('shellQuote', () => {
  it.each([
    ['plain', "'plain'"],
    ["it's", "'it'\\''s'"],
    ['$HOME `id` \\n', "'$HOME `id` \\n'"],
  ])('%s → %s', (text, quoted) => {
    expect(shellQuote(text)).toBe(quoted);
  });
});

// The generated cURL run by bash with `curl` standing in for a function that prints what it was given: the
// words it got and its standard input must be exactly the URL, the headers and the JSON shown. One bash per
// protocol runs every text's command (control characters mark the pieces: JSON escapes them in the body).
describe('the cURL command through bash', () => {
  const key = `k3y 'with' $pecial "chars"`;
  it.each(['chat', 'responses', 'messages'] as const)('%s keeps every text exactly', (protocol) => {
    const requests = shellTexts.map((text) => requestFor(protocol, text));
    const script = [
      `curl() { printf '%s\\1' "$@"; printf '\\2'; cat; printf '\\3'; }`,
      ...requests.map((request) => codeSnippet('curl', adapters[protocol], request)),
    ].join('\n');
    const out = execFileSync('bash', ['--norc', '-c', script], {
      // Not a socket on standard input: Debian's bash would then read ~/.bashrc, as when run by sshd.
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOPBASE_API_KEY: key },
      encoding: 'utf8',
    });
    const runs = out.split('\x03').slice(0, -1);
    expect(runs).toHaveLength(requests.length);
    runs.forEach((run, i) => {
      const [words, stdin] = run.split('\x02') as [string, string];
      const args = words.split('\x01');
      expect(args[0]).toBe(`https://gateway.example.com/v1${adapters[protocol].path}`);
      expect(args).toContain(protocol === 'messages' ? `x-api-key: ${key}` : `authorization: Bearer ${key}`);
      const body = requests[i]?.body;
      expect(stdin).toBe(`${JSON.stringify(body, null, 2)}\n`);
      expect(JSON.parse(stdin)).toEqual(body);
    });
  });
});

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../simulator/server.ts';
import { type CodeLanguage, codeSnippet } from './codeSnippets.ts';
import { adapters, buildRequest } from './protocols/index.ts';
import { shellTexts } from './testing/shellTexts.ts';
import type { Protocol } from './turn.ts';

/**
 * The snippets run for real against the simulator (which wants the key, so a wrong header fails): bash and
 * curl run the cURL command, Node (through tsx) the TypeScript with the official SDK from node_modules, and
 * python3 the Python against stand-ins for the SDKs (this machine's Python has neither), which report what
 * `create` was given. What the simulator received must be the attempt's own body.
 */
const run = promisify(execFile);
const key = 'sk-test-view-code';
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ deltaMs: 1, keepaliveMs: 50, apiKey: key });
  dir = await mkdtemp(join(tmpdir(), 'hopbase-view-code-'));
  // The snippets import the SDKs by name, as a person's project would.
  await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }');
  for (const [name, code] of Object.entries(pythonStandIns)) {
    await mkdir(join(dir, 'stand-ins', name), { recursive: true });
    await writeFile(join(dir, 'stand-ins', name, '__init__.py'), code);
  }
});
afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * Python's SDKs stood in for by what they do with the request: the client's `create(**body)` posts `body` as
 * JSON to the SDK's path under `base_url`, with the SDK's key header, and yields the answer's lines.
 */
const standIn = (client: string, headers: string, methods: string) => `import json, urllib.request
from types import SimpleNamespace

class ${client}:
    def __init__(self, *, base_url, api_key):
        self.base_url, self.api_key = base_url, api_key
${methods}
    def _create(self, path):
        def create(**body):
            request = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(), method="POST",
                headers={"content-type": "application/json", ${headers}})
            with urllib.request.urlopen(request) as response:
                return response.read().decode().splitlines()
        return create
`;
const pythonStandIns = {
  openai: standIn(
    'OpenAI',
    '"authorization": "Bearer " + self.api_key',
    `        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self._create("/chat/completions")))
        self.responses = SimpleNamespace(create=self._create("/responses"))`,
  ),
  anthropic: standIn(
    'Anthropic',
    '"x-api-key": self.api_key, "anthropic-version": "2023-06-01"',
    '        self.messages = SimpleNamespace(create=self._create("/v1/messages"))',
  ),
};

const protocols = ['chat', 'responses', 'messages'] as const;

/** An attempt's request as the app builds it: every text a shell could misread, a system prompt, a setting. */
function attemptRequest(protocol: Protocol, word: string) {
  const { path, headers, body } = buildRequest(protocol, {
    model: 'sim-echo',
    system: 'Answer in "quotes" and $dollars',
    messages: [{ role: 'user', text: `${word}\n${shellTexts.join('\n')}` }],
    maxOutputTokens: 256,
  });
  return { base: `${sim.url}/v1`, path, headers, body };
}

/** The one request the simulator logged with `word` in its body. */
function received(word: string) {
  const found = sim.simulator.requests().filter((r) => JSON.stringify(r.body).includes(word));
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function runSnippet(language: CodeLanguage, code: string): Promise<string> {
  const env = { PATH: process.env.PATH, HOPBASE_API_KEY: key };
  // Standard input is not a socket: Debian's bash would then read ~/.bashrc, as when run by sshd.
  if (language === 'curl') {
    const { stdout } = await run(
      'bash',
      [
        '--norc',
        '-c',
        `set -e -o pipefail\n${code.replace('curl ', 'curl --fail-with-body --silent --show-error ')}`,
      ],
      { env },
    );
    return stdout;
  }
  const file = join(
    dir,
    `snippet-${Math.random().toString(36).slice(2)}.${language === 'python' ? 'py' : 'mts'}`,
  );
  await writeFile(file, code);
  const command = language === 'python' ? 'python3' : resolve('node_modules/.bin/tsx');
  const { stdout } = await run(command, [file], {
    env: { ...env, PYTHONPATH: join(dir, 'stand-ins') },
    cwd: dir,
  });
  return stdout;
}

describe.each(protocols)('%s, run against the simulator', (protocol) => {
  it('cURL: the simulator receives the attempt’s body, byte for byte as shown', async () => {
    const word = `curl-${protocol}-${Math.random().toString(36).slice(2)}`;
    const request = attemptRequest(protocol, word);
    const out = await runSnippet('curl', codeSnippet('curl', adapters[protocol], request));
    // The answer streamed back whole.
    expect(out).toMatch(protocol === 'chat' ? /data: \[DONE\]/ : /(response\.completed|message_stop)/);
    const got = received(word);
    expect(got.path).toBe(`/v1${adapters[protocol].path}`);
    expect(got.body).toEqual(request.body);
    // The bytes are the JSON the dialog shows, and the line that ends the here-document.
    const shown = `${JSON.stringify(request.body, null, 2)}\n`;
    expect(got.rawSha256).toBe(createHash('sha256').update(shown).digest('hex'));
  });

  it('TypeScript: the official SDK sends the attempt’s body', async () => {
    const word = `ts-${protocol}-${Math.random().toString(36).slice(2)}`;
    const request = attemptRequest(protocol, word);
    const out = await runSnippet('typescript', codeSnippet('typescript', adapters[protocol], request));
    expect(out).toMatch(
      protocol === 'chat' ? /chat\.completion\.chunk/ : /(response\.completed|message_stop)/,
    );
    const got = received(word);
    expect(got.path).toBe(`/v1${adapters[protocol].path}`);
    expect(got.body).toEqual(request.body);
  });

  it('Python: the body as a Python literal is the attempt’s body (SDKs stood in for)', async () => {
    const word = `py-${protocol}-${Math.random().toString(36).slice(2)}`;
    const request = attemptRequest(protocol, word);
    const out = await runSnippet('python', codeSnippet('python', adapters[protocol], request));
    expect(out).toMatch(protocol === 'chat' ? /data: \[DONE\]/ : /(response\.completed|message_stop)/);
    const got = received(word);
    expect(got.path).toBe(`/v1${adapters[protocol].path}`);
    expect(got.body).toEqual(request.body);
  });
});

/** A request with every part a conversation can have: a system prompt, tools, a tool loop, an image, reasoning. */
function richRequest(protocol: Protocol) {
  const { path, headers, body } = buildRequest(protocol, {
    model: 'sim-reasoning',
    system: 'Be brief.',
    messages: [
      {
        role: 'user',
        text: 'Weather?',
        attachments: [{ kind: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
      },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      },
      { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '{"temperature":21}' },
    ],
    tools: [
      {
        name: 'get_weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ],
    maxOutputTokens: 8192,
    temperature: 0.5,
    reasoning: { effort: 'high', budgetTokens: 4096 },
  });
  return { base: 'https://gateway.example.com/v1', path, headers, body };
}

// What a person pastes into a typed project must compile against the SDK's own types, each protocol's
// richest request and the one with every text a shell could misread.
it('TypeScript: every snippet type-checks against the official SDKs', { timeout: 120_000 }, async () => {
  const files: string[] = [];
  for (const protocol of protocols) {
    for (const [name, request] of [
      ['rich', richRequest(protocol)],
      ['texts', attemptRequest(protocol, 'typed')],
    ] as const) {
      const file = `typed-${protocol}-${name}.mts`;
      await writeFile(join(dir, file), codeSnippet('typescript', adapters[protocol], request));
      files.push(file);
    }
  }
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files,
    }),
  );
  const checked = await run(resolve('node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], {
    cwd: dir,
  }).then(
    () => 'no errors',
    (error: { stdout: string }) => error.stdout,
  );
  expect(checked).toBe('no errors');
});

import { describe, expect, it } from 'vitest';
import { loadStreamFixtures } from '../testing/fixtures.ts';
import { adapters, protocols, recognizeProtocol } from './index.ts';

describe('recognizeProtocol', () => {
  const fixtures = loadStreamFixtures();
  const dirs = [...new Set(fixtures.map((f) => f.name.slice(0, f.name.lastIndexOf('/'))))];

  it('covers every protocol directory', () => {
    expect(dirs).toEqual(
      expect.arrayContaining([
        'chat',
        'responses',
        'anthropic',
        'synthetic/chat',
        'synthetic/responses',
        'synthetic/anthropic',
      ]),
    );
  });

  it.each(fixtures.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    expect(recognizeProtocol(new TextDecoder().decode(f.bytes))).toBe(f.protocol);
  });

  it.each([
    ['empty', ''],
    ['plain text', 'hello world\n'],
    ['a keepalive only', ': hopbase-keepalive\n\n'],
    ['unrelated JSON events', 'data: {"type":"ping"}\n\ndata: {"foo":1}\n\n'],
    ['HTML', '<!doctype html><html><body>Bad gateway</body></html>'],
  ])('junk (%s) → null', (_name, text) => {
    expect(recognizeProtocol(text)).toBeNull();
  });
});

describe('recognizes', () => {
  it.each(loadStreamFixtures().map((f) => [f.name, f] as const))(
    '%s: by exactly one protocol',
    (_name, f) => {
      const sse = new TextDecoder().decode(f.bytes);
      expect(protocols.filter((protocol) => adapters[protocol].recognizes(sse))).toEqual([f.protocol]);
    },
  );
});

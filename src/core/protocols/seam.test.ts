/**
 * The adapter is the whole seam: outside `src/core/protocols/`, no code picks behaviour by comparing with a
 * protocol's name, switching on it, keying a table by it or answering with it. What a protocol does is
 * asked of its adapter.
 */
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(
  ['../../**/*.{ts,tsx}', '!./**', '!../../**/*.test.{ts,tsx}', '!../../**/testing/**'],
  { query: '?raw', import: 'default', eager: true },
);

const name = String.raw`(['"\x60])(?:chat|responses|messages)\1`;
const branchPatterns = [
  new RegExp(String.raw`[!=]==?\s*${name}`),
  new RegExp(String.raw`${name}\s*[!=]==?`),
  new RegExp(String.raw`\bcase\s+${name}\s*:`),
  new RegExp(String.raw`\breturn\s+${name}`),
  /\bRecord<Protocol\b/,
];

/** Lines that name a protocol to pick behaviour: `path:line: text`. */
function protocolBranches(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      branchPatterns.some((pattern) => pattern.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
    );
}

/** What may remain, each with why: a line containing `text` in `path` is let through. */
const allowed: { path: string; text: string; why: string }[] = [];

describe('protocol-specific branching outside src/core/protocols/', () => {
  it('finds a comparison, a switch, a table and an answer naming a protocol', () => {
    expect(
      protocolBranches(
        'x.ts',
        [
          "if (protocol === 'messages') x();",
          'const y = "chat" !== protocol;',
          "  case 'responses':",
          "return 'messages';",
          'const labels: Record<Protocol, string> = {};',
          "const key = ['models', protocol];",
          "type T = Pick<Conversation, 'messages'>;",
        ].join('\n'),
      ),
    ).toHaveLength(5);
  });

  it('reads the app', () => {
    const paths = Object.keys(sources);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths).toContain('../../session/ChatSession.ts');
    expect(paths).not.toContain('./index.ts');
  });

  it('has none but the allowed', () => {
    const found = Object.entries(sources).flatMap(([path, text]) =>
      protocolBranches(path, text).filter(
        (line) => !allowed.some((a) => a.path === path && line.slice(path.length).includes(a.text)),
      ),
    );
    expect(found).toEqual([]);
  });

  it('allows nothing that is no longer there', () => {
    for (const a of allowed)
      expect(protocolBranches(a.path, sources[a.path] ?? '').some((line) => line.includes(a.text))).toBe(
        true,
      );
  });
});

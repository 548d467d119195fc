/**
 * Single-person mode's first screen carries no team-mode code: `main.tsx` asks who is here
 * (`state/team/account.ts`) and fetches the rest (`teamServices.ts`, the sign-in screen) only in team mode.
 * Read from the sources' static imports, what the bundler follows into the entry; a build would be slower.
 */
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Each source by its path under src/ (`app/main.tsx`). */
const bySrcPath = new Map(
  Object.entries(sources).map(([key, source]) => [srcPath(new URL(key, 'file:///src/app/')), source]),
);

function srcPath(url: URL): string {
  return url.pathname.replace(/^\/src\//, '');
}

/**
 * The modules `source` loads when it runs: its static imports and re-exports, relative ones only (packages
 * are not the app's). `import type` is erased; `import { type A }` is not (verbatimModuleSyntax keeps it).
 */
function staticImports(source: string): string[] {
  const found = source.matchAll(
    /^(?:import|export)(?!\s+type\s)(?:\s+[^'";]*?\s+from)?\s*'(\.{1,2}\/[^']+)'/gm,
  );
  return [...found].map(([, specifier]) => specifier!);
}

/** Every module `start` loads before it runs, transitively, as paths under src/, sorted. */
function loadedWith(start: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of staticImports(bySrcPath.get(path) ?? ''))
      visit(srcPath(new URL(specifier, `file:///src/${path}`)));
  };
  visit(start);
  return [...seen].filter((path) => bySrcPath.has(path)).sort();
}

/** What only team mode shows: its views come with `teamServices.ts`. */
const teamOnly = (path: string) =>
  /^components\/account\//.test(path) || path === 'components/banners/TeamBanners.tsx';

describe('static imports', () => {
  it.each([
    ["import { a } from './a.ts';", ['./a.ts']],
    ["import type { A } from './a.ts';", []],
    ["import { type A } from './a.ts';", ['./a.ts']],
    ["import { type A, b } from '../b.ts';", ['../b.ts']],
    ["import {\n  a,\n  b,\n} from './a.ts';", ['./a.ts']],
    ["import * as v from 'valibot';", []],
    ["import './app.css';", ['./app.css']],
    ["export { a } from './a.ts';", ['./a.ts']],
    ["export type { A } from './a.ts';", []],
    ["const m = await import('./lazy.ts');", []],
    ["  return import('./lazy.ts');", []],
  ])('of %j: %j', (source, expected) => {
    expect(staticImports(source)).toEqual(expected);
  });
});

describe("single-person mode's first screen", () => {
  const entry = loadedWith('app/main.tsx');

  it('asks who is here, and holds no other team-mode module', () => {
    expect(entry).toContain('app/App.tsx');
    expect(entry.filter((path) => path.startsWith('state/team/'))).toEqual([
      'state/team/account.ts',
      'state/team/json.ts',
    ]);
  });

  it('holds none of the views only team mode shows', () => {
    expect(entry).toContain('components/sidebar/ConversationList.tsx');
    expect(entry.filter(teamOnly)).toEqual([]);
  });

  it('holds no part of Settings (the usage section among them): it is fetched when first opened', () => {
    expect(entry.filter((path) => path.startsWith('components/settings/'))).toEqual([]);
  });

  it('is apart from team mode, which brings its sync and its views', () => {
    const team = loadedWith('app/teamServices.ts');
    expect(team).toContain('state/team/serverSync.ts');
    expect(team.filter(teamOnly)).toEqual([
      'components/account/AccountPanel.tsx',
      'components/account/signInPath.ts',
      'components/banners/TeamBanners.tsx',
    ]);
  });
});

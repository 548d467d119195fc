/**
 * Importing the app starts nothing: no listeners, timers, subscriptions or workers, and no module holds
 * state: no store, and no variable or collection a module changes, but for the few constant caches listed
 * here. The startups are the exceptions by design: `main.tsx`, which makes the instances, and the inline
 * script that paints the last screen before it (`firstScreen/restoreMain.ts`).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const modules = import.meta.glob<Record<string, unknown>>([
  '../**/*.{ts,tsx}',
  '!../**/*.test.{ts,tsx}',
  '!../testing/**',
  '!../core/testing/**',
  '!./main.tsx',
  '!./firstScreen/restoreMain.ts',
  // chart.js asks on import whether the browser takes passive listeners (a 'test' listener added and
  // removed at once): nothing is left listening, and the module is fetched only when the usage page opens.
  '!../components/usage/drawChart.ts',
]);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the whole app graph, imported', () => {
  // The whole graph, KaTeX and highlight.js included: seconds on a busy machine.
  it('adds no listener and starts no timer', { timeout: 30_000 }, async () => {
    vi.resetModules();
    const started = [
      vi.spyOn(window, 'addEventListener'),
      vi.spyOn(document, 'addEventListener'),
      vi.spyOn(globalThis, 'setTimeout'),
      vi.spyOn(globalThis, 'setInterval'),
      vi.spyOn(globalThis, 'requestAnimationFrame'),
      vi.spyOn(globalThis, 'queueMicrotask'),
      vi.spyOn(globalThis, 'fetch'),
    ];
    const Worker = vi.fn();
    vi.stubGlobal('Worker', Worker);
    started.push(Worker);
    const names = Object.keys(modules);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) await modules[name]!();
    for (const spy of started) expect(spy, spy.getMockName()).not.toHaveBeenCalled();
  });

  it('exports no store instance: state belongs to the instances made at startup', async () => {
    const held: string[] = [];
    for (const [name, load] of Object.entries(modules)) {
      for (const [exported, value] of Object.entries(await load())) {
        const candidate = value as { getState?: unknown; subscribe?: unknown } | null;
        if (typeof candidate?.getState === 'function' && typeof candidate.subscribe === 'function')
          held.push(`${name}: ${exported}`);
      }
    }
    expect(held).toEqual([]);
  });
});

/** Every module's source, the startup's included (it may make instances, but keep none in variables). */
const sources = import.meta.glob<string>(
  ['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../testing/**', '!../core/testing/**'],
  { query: '?raw', import: 'default', eager: true },
);

/**
 * The module-level state of every module, as `file: name`: the constant caches below may hold some, each
 * documented where it is declared; anything else belongs to an instance made at startup.
 */
const CONSTANT_CACHES = [
  'components/sidebar/ConversationList.tsx: totals',
  'core/keepShape.ts: kept',
  'state/domain/branches.ts: trees',
];

const MUTATED_WITH = ['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort'];

/** Whether `source` changes what `name` holds: a method that changes it, or an assignment into it. */
function changes(source: string, name: string): boolean {
  const member = String.raw`(?:\.\w+|\[[^\]\n]*\])+`;
  return new RegExp(
    String.raw`(?<![\w.$])${name}(?:\.(?:${MUTATED_WITH.join('|')})\(|${member}\s*(?:[-+*/%|&^]|\?\?|&&|\|\|)?=(?!=)|${member}\s*(?:\+\+|--))|Object\.assign\(\s*${name}\b|delete ${name}\b`,
  ).test(source);
}

/**
 * The names a module keeps state in: top-level `let` and `var`, and top-level `const` collections (`new
 * Map/Set/WeakMap/WeakSet`, `[]`, `{}`) that the module changes. Top level is column 0, as Biome formats.
 */
function moduleState(source: string): string[] {
  const variables = [...source.matchAll(/^(?:export )?(?:let|var)\s+([\w$]+|[{[][^=]*)/gm)];
  const collections = [
    ...source.matchAll(
      /^(?:export )?const ([\w$]+)(?::[^\n]*?)? = (?:new (?:Map|Set|WeakMap|WeakSet)\b|\[|\{)/gm,
    ),
  ].filter(([, name]) => changes(source, name!));
  return [...variables, ...collections].map(([, name]) => name!.trim());
}

describe('module-level state', () => {
  it('is found where it is: variables, and collections only when changed', () => {
    expect(moduleState('let count = 0;\nexport let last: string | null = null;\nvar old;')).toEqual([
      'count',
      'last',
      'old',
    ]);
    expect(moduleState('const waiting = new Map<number, string>();\nwaiting.set(1, "a");')).toEqual([
      'waiting',
    ]);
    expect(
      moduleState('const kept: object[] = [];\nexport const keep = (o: object) => kept.push(o);'),
    ).toEqual(['kept']);
    expect(moduleState('const state = { n: 0 };\nfunction bump() {\n  state.n++;\n}')).toEqual(['state']);
    expect(moduleState('const cache = {} as Record<string, number>;\ncache[key] = 1;')).toEqual(['cache']);
    // Constant tables, and state inside functions, are no module's state.
    expect(
      moduleState("const keys = new Set(['a']);\nconst ok = keys.has(x);\nconst options = { a: 1 };"),
    ).toEqual([]);
    expect(
      moduleState('function make() {\n  let n = 0;\n  const seen = new Set();\n  seen.add(n);\n}'),
    ).toEqual([]);
  });

  it('is kept only in the documented constant caches: state belongs to the instances made at startup', () => {
    const found = Object.entries(sources).flatMap(([path, source]) =>
      moduleState(source).map((name) => `${path.replace('../', '')}: ${name}`),
    );
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    expect(found.sort()).toEqual(CONSTANT_CACHES);
    for (const entry of CONSTANT_CACHES) {
      const [file, name] = entry.split(': ') as [string, string];
      const lines = sources[`../${file}`]!.split('\n');
      const declared = lines.findIndex((line) =>
        new RegExp(`^(?:export )?(?:const|let|var) ${name}\\b`).test(line),
      );
      // Documented where it is declared: why it is a module's.
      expect(lines[declared - 1], entry).toMatch(/^\s*(?:\/\/|\*\/|.*\*\/$)/);
    }
  });
});

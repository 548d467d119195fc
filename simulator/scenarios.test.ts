import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { demoAnswer, echoAnswer, toolResultAnswer } from './answer.ts';
import type { Conversation } from './conversation.ts';
import { planResponse, promptOf, SCENARIOS, scenarioFor } from './scenarios.ts';
import { countTokens, type Step } from './script.ts';
import { splitFragments, splitTokens } from './tokens.ts';
import { sampleFromSchema } from './tool-args.ts';

// Pure parts: token splitting, answers, schema-driven arguments and the scripts scenarios produce.
const conv = (overrides: Partial<Conversation> = {}): Conversation => ({
  model: 'sim-echo',
  stream: true,
  maxOutputTokens: undefined,
  tools: [],
  toolRequired: false,
  lastTurn: { kind: 'user', text: 'Explain streaming', received: [] },
  inputTokens: 10,
  cachedTokens: null,
  reasoning: { effort: 'medium' },
  ...overrides,
});
const plan = (c: Conversation, flakyAttemptFails = false) =>
  planResponse(c, scenarioFor(c.model), { stallMs: 1234, flakyAttemptFails });
const steps = (c: Conversation, flaky = false): Step[] => {
  const p = plan(c, flaky);
  if (p.kind !== 'script') throw new Error('expected a script');
  return p.steps;
};

describe('tokens', () => {
  it('splits text into pieces that join back to it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (text) => {
        const pieces = splitTokens(text);
        expect(pieces.join('')).toBe(text);
        expect(pieces.every((p) => p.trim().length <= 8 && p.length > 0)).toBe(true);
      }),
    );
    expect(splitTokens('Hello  wonderful\nworld')).toEqual(['Hello', '  wonderfu', 'l', '\nworld']);
  });

  it('cuts arguments into small irregular fragments', () => {
    const json = JSON.stringify({ city: 'Paris', unit: 'celsius' });
    const pieces = splitFragments(json);
    expect(pieces.join('')).toBe(json);
    expect(new Set(pieces.map((p) => p.length)).size).toBeGreaterThan(2);
  });
});

describe('answers', () => {
  it('builds markdown with a heading, list, table and code fence from the message', () => {
    const text = demoAnswer('compare | pipes and `ticks`');
    expect(text).toMatch(/^## Compare pipes and ticks\n/);
    expect(text).toContain('\n- **Words:** 4\n');
    expect(text).toContain('| 1 | compare | 7 |');
    expect(text).toContain('const message = "compare | pipes and \\u0060ticks\\u0060";');
  });

  it('answers with formulas when asked for one, with the markdown demo otherwise', () => {
    const math = echoAnswer('Show me a Formula');
    expect(math).toContain('$E = mc^2$');
    expect(math).toContain('\\[ x = \\frac{-b');
    expect(math).toContain('$$\n\\int_');
    expect(math).toContain('costs $5 and the course $10');
    expect(echoAnswer('formulation')).toBe(demoAnswer('formulation'));
  });

  it('answers with lists when asked for steps', () => {
    const steps = echoAnswer('What are the Steps?');
    expect(steps).toContain('1. **Install** the tools.\n\n   Both are needed:\n   - Node 20');
    expect(steps).toContain('\n\n4. **Check**');
    expect(steps).toContain('- [ ] Notes written');
    expect(echoAnswer('footsteps')).toBe(demoAnswer('footsteps'));
  });

  it('quotes a tool result inside a fence it cannot close', () => {
    const text = toolResultAnswer([{ name: 'run', content: 'a ``` b' }]);
    expect(text).toContain('`run` returned:\n\n````\na ``` b\n````');
  });
});

describe('arguments from JSON Schema', () => {
  it('honours const, enum, default, bounds, formats and nesting', () => {
    const schema = {
      type: 'object',
      properties: {
        location: { type: 'string' },
        mode: { const: 'fast' },
        unit: { enum: ['kelvin', 'celsius'] },
        limit: { type: 'integer', default: 10 },
        count: { type: 'integer', minimum: 5 },
        ratio: { type: 'number', maximum: 1 },
        when: { type: 'string', format: 'date-time' },
        short: { type: 'string', maxLength: 3 },
        optional: { type: ['null', 'boolean'] },
        either: { anyOf: [{ type: 'null' }, { type: 'number' }] },
        items: {
          type: 'array',
          minItems: 2,
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
      },
    };
    expect(sampleFromSchema(schema, 'question')).toEqual({
      location: 'Paris',
      mode: 'fast',
      unit: 'kelvin',
      limit: 10,
      count: 5,
      ratio: 1,
      when: '2025-06-01T12:00:00Z',
      short: 'que',
      optional: true,
      either: 21.5,
      items: [{ name: 'Ada Lovelace' }, { name: 'Ada Lovelace' }],
    });
  });
});

describe('scripts', () => {
  it('lists the required scenario ids', () => {
    expect(SCENARIOS.map((s) => s.id)).toEqual(
      expect.arrayContaining([
        'sim-echo',
        'sim-reasoning',
        'sim-tools',
        'sim-long',
        'sim-stall',
        'sim-interrupt',
        'sim-drop',
        'sim-rate-limit',
        'sim-flaky',
      ]),
    );
    expect(scenarioFor('gpt-unknown').id).toBe('sim-echo');
  });

  it('cuts at the output token limit and finishes with length', () => {
    const s = steps(conv({ maxOutputTokens: 4 }));
    expect(countTokens(s)).toBe(4);
    expect(s.at(-1)).toEqual({ kind: 'finish', reason: 'length' });
  });

  it('stalls after a little output, for the stall timeout', () => {
    const s = steps(conv({ model: 'sim-stall' }));
    expect(countTokens(s)).toBe(5);
    expect(s.slice(-2)).toEqual([
      { kind: 'pause', ms: 1234 },
      { kind: 'fail', failure: 'stalled', message: expect.stringContaining('1 s') },
    ]);
  });

  it('interrupts and drops midway', () => {
    const full = countTokens(steps(conv()));
    const interrupted = steps(conv({ model: 'sim-interrupt' }));
    expect(countTokens(interrupted)).toBe(Math.floor(full / 2));
    expect(interrupted.at(-1)).toMatchObject({ kind: 'fail', failure: 'interrupted' });
    expect(steps(conv({ model: 'sim-drop' })).at(-1)).toEqual({ kind: 'drop' });
    expect(steps(conv({ model: 'sim-flaky' }), true).at(-1)).toMatchObject({ kind: 'fail' });
    expect(steps(conv({ model: 'sim-flaky' }), false).at(-1)).toEqual({ kind: 'finish', reason: 'stop' });
    expect(plan(conv({ model: 'sim-rate-limit' }))).toEqual({ kind: 'rate_limit' });
  });

  it('calls a tool when the scenario does or tool_choice requires it, and answers tool results', () => {
    const tools = [{ name: 'lookup', schema: { type: 'object', properties: { query: { type: 'string' } } } }];
    const call = steps(conv({ model: 'sim-tools', tools }));
    expect(call).toContainEqual({ kind: 'tool_call', name: 'lookup' });
    expect(call.at(-1)).toEqual({ kind: 'finish', reason: 'tool_calls' });
    expect(steps(conv({ tools }))).not.toContainEqual({ kind: 'tool_call', name: 'lookup' });
    expect(steps(conv({ tools, toolRequired: true }))).toContainEqual({ kind: 'tool_call', name: 'lookup' });
    const answer = steps(
      conv({
        model: 'sim-tools',
        tools,
        lastTurn: { kind: 'tool_results', results: [{ name: 'lookup', content: '42' }] },
      }),
    );
    expect(answer.every((s) => s.kind !== 'tool_call')).toBe(true);
    expect(answer.map((s) => ('piece' in s ? s.piece : '')).join('')).toContain('```\n42\n```');
  });

  it('thinks first for the reasoning model', () => {
    const s = steps(conv({ model: 'sim-reasoning' }));
    const firstText = s.findIndex((x) => x.kind === 'text');
    expect(firstText).toBeGreaterThan(10);
    expect(s.slice(0, firstText).every((x) => x.kind === 'reasoning')).toBe(true);
  });

  it('thinks as hard as the request asks, within its budget, and not at all at none', () => {
    const thinking = (reasoning: Conversation['reasoning'], model = 'sim-reasoning') =>
      steps(conv({ model, reasoning })).filter((x) => x.kind === 'reasoning').length;
    const [low, medium, high] = (['low', 'medium', 'high'] as const).map((effort) => thinking({ effort }));
    expect(thinking({ effort: 'none' })).toBe(0);
    expect(low).toBeGreaterThan(0);
    expect(medium).toBeGreaterThan(low ?? 0);
    expect(high).toBeGreaterThan(medium ?? 0);
    expect(thinking({ effort: 'high', budgetTokens: 5 })).toBe(5);
    // Other models do not reason whatever the request asks.
    expect(thinking({ effort: 'high' }, 'sim-echo')).toBe(0);
  });
});

describe('prompts and prices', () => {
  it.each<[string, number, number | null, [number, number, number]]>([
    ['sim-echo', 100, null, [0, 0, 0]],
    ['sim-cached', 100, null, [50, 13, 12]],
    ['sim-cached', 7, null, [3, 1, 0]],
    ['sim-cached', 0, null, [0, 0, 0]],
    // Asking for caching: the first turn writes it all, a later one reads what the earlier turn cached.
    ['sim-echo', 100, 0, [0, 100, 0]],
    ['sim-echo', 100, 60, [60, 40, 0]],
  ])(
    '%s with %i prompt tokens, %s cached by an earlier turn: read, written for 5 minutes, for an hour',
    (model, tokens, cachedTokens, [read, w5, w1]) => {
      expect(promptOf(conv({ model, inputTokens: tokens, cachedTokens }))).toEqual({
        tokens,
        cacheRead: read,
        cacheWrite5m: w5,
        cacheWrite1h: w1,
      });
    },
  );

  it('prices.json, in LiteLLM’s format, prices every model but sim-unpriced', () => {
    const table = JSON.parse(readFileSync(new URL('./prices.json', import.meta.url), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(table).sort()).toEqual(
      SCENARIOS.map((s) => s.id)
        .filter((id) => id !== 'sim-unpriced')
        .sort(),
    );
    for (const entry of Object.values(table)) {
      expect(entry.input_cost_per_token).toEqual(expect.any(Number));
      expect(entry.output_cost_per_token).toEqual(expect.any(Number));
      expect(entry.max_input_tokens).toEqual(expect.any(Number));
    }
  });
});

import { echoAnswer, longAnswer, oneLine, reasoningText, toolPreamble, toolResultAnswer } from './answer.ts';
import { describeReceived } from './attachments.ts';
import type { Conversation } from './conversation.ts';
import {
  countTokens,
  type FinishReason,
  INTERRUPTED_MESSAGE,
  type Prompt,
  type Step,
  uncached,
} from './script.ts';
import { splitFragments, splitTokens } from './tokens.ts';
import { BREAK_SCHEMA, brokenSample, sampleFromSchema } from './tool-args.ts';

type Fault = 'none' | 'stall' | 'interrupt' | 'drop' | 'rate_limit' | 'flaky';

export interface Scenario {
  id: string;
  description: string;
  reasoning: boolean;
  callsTools: boolean;
  long: boolean;
  /** Reports part of every prompt as read from the provider's cache (and, where a protocol says so, written). */
  cached: boolean;
  fault: Fault;
}

const plain = { reasoning: false, callsTools: false, long: false, cached: false };

/** Behaviours chosen by model id; `/v1/models` lists them so the app's model picker doubles as a fault picker. */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'sim-echo',
    description: 'Markdown answer built from your message (heading, list, table, code)',
    ...plain,
    fault: 'none',
  },
  {
    id: 'sim-reasoning',
    description: 'Thinks first (more at a higher effort), then answers; calls a tool if offered',
    ...plain,
    reasoning: true,
    callsTools: true,
    fault: 'none',
  },
  {
    id: 'sim-tools',
    description: 'Calls the first offered tool with arguments from its schema, then answers with its result',
    ...plain,
    callsTools: true,
    fault: 'none',
  },
  {
    id: 'sim-long',
    description: 'A few thousand tokens streamed at a steady rate',
    ...plain,
    long: true,
    fault: 'none',
  },
  {
    id: 'sim-stall',
    description: 'Some output, then only keepalives until the stall timeout, then a mid-stream error',
    ...plain,
    fault: 'stall',
  },
  {
    id: 'sim-interrupt',
    description: 'Some output, then the mid-stream error event, then the stream ends',
    ...plain,
    fault: 'interrupt',
  },
  {
    id: 'sim-drop',
    description: 'Some output, then the connection is cut with no terminal event',
    ...plain,
    fault: 'drop',
  },
  {
    id: 'sim-rate-limit',
    description: '429 with Retry-After before any output',
    ...plain,
    fault: 'rate_limit',
  },
  {
    id: 'sim-flaky',
    description: 'First attempt of a request is interrupted midway; the identical retry succeeds',
    ...plain,
    fault: 'flaky',
  },
  {
    id: 'sim-cached',
    description:
      'Like sim-echo, with half of the prompt read from the cache (Anthropic: and a quarter written, half of it for an hour)',
    ...plain,
    cached: true,
    fault: 'none',
  },
  {
    id: 'sim-unpriced',
    description: 'Like sim-echo, with no price in the simulator’s price table (simulator/prices.json)',
    ...plain,
    fault: 'none',
  },
];

const DEFAULT_SCENARIO = SCENARIOS[0] as Scenario;

/** Unknown model ids behave like `sim-echo`, so any client works against the simulator unchanged. */
export function scenarioFor(model: string): Scenario {
  return SCENARIOS.find((s) => s.id === model) ?? DEFAULT_SCENARIO;
}

/**
 * How the provider counted the prompt: a cached scenario read half of it from the cache and wrote a
 * quarter (half of that for an hour); a request that asks for caching read what its earlier turn cached
 * and wrote the rest (for five minutes). Chat Completions and Responses report only the reads, as OpenAI does.
 */
export function promptOf(conv: Conversation): Prompt {
  const tokens = conv.inputTokens;
  if (!scenarioFor(conv.model).cached) {
    if (conv.cachedTokens === null) return uncached(tokens);
    const cacheRead = Math.min(conv.cachedTokens, tokens);
    return { tokens, cacheRead, cacheWrite5m: tokens - cacheRead, cacheWrite1h: 0 };
  }
  const written = Math.floor(tokens / 4);
  const cacheWrite1h = Math.floor(written / 2);
  return { tokens, cacheRead: Math.floor(tokens / 2), cacheWrite5m: written - cacheWrite1h, cacheWrite1h };
}

function stalledMessage(stallMs: number): string {
  const silence = stallMs < 1000 ? `${stallMs} ms` : `${Math.round(stallMs / 1000)} s`;
  return `The model produced no output for ${silence}; the stream was stopped, please retry`;
}

export type Plan = { kind: 'rate_limit' } | { kind: 'script'; steps: Step[] };

export interface PlanContext {
  stallMs: number;
  /** For `sim-flaky`: whether this attempt is the one that breaks. */
  flakyAttemptFails: boolean;
}

function pieces(kind: 'reasoning' | 'text', text: string): Step[] {
  return splitTokens(text).map((piece) => ({ kind, piece }));
}

/** A reasoning model's thinking at the request's effort, within its budget; none for other models. */
function thinking(conv: Conversation, scenario: Scenario, userText: string): Step[] {
  const { effort, budgetTokens } = conv.reasoning;
  if (!scenario.reasoning || effort === 'none') return [];
  const steps = pieces('reasoning', reasoningText(userText, conv.lastTurn.kind !== 'user', effort));
  return budgetTokens === undefined ? steps : steps.slice(0, budgetTokens);
}

/** A value for `schema`; one that breaks it in one place when the question asks for that. */
function structured(schema: unknown, userText: string): unknown {
  const sample = sampleFromSchema(schema, oneLine(userText, 60) || 'example');
  return userText.includes(BREAK_SCHEMA) ? brokenSample(sample) : sample;
}

/** The model's complete output for this turn, before limits and faults. */
function answer(conv: Conversation, scenario: Scenario): { steps: Step[]; reason: FinishReason } {
  const turn = conv.lastTurn;
  const userText = turn.kind === 'user' ? turn.text : '';
  const steps: Step[] = thinking(conv, scenario, userText);
  if (turn.kind === 'tool_results') {
    return { steps: [...steps, ...pieces('text', toolResultAnswer(turn.results))], reason: 'stop' };
  }
  // Asked for a structured answer (and no tool call required): JSON from the schema, as strict mode makes it.
  if (conv.outputSchema !== undefined && !conv.toolRequired) {
    steps.push(...pieces('text', JSON.stringify(structured(conv.outputSchema, userText))));
    return { steps, reason: 'stop' };
  }
  const tool = scenario.callsTools || conv.toolRequired ? conv.tools[0] : undefined;
  if (tool) {
    const args = JSON.stringify(structured(tool.schema, userText));
    steps.push(...pieces('text', toolPreamble(tool.name)), { kind: 'tool_call', name: tool.name });
    steps.push(...splitFragments(args).map((piece): Step => ({ kind: 'tool_args', piece })));
    return { steps, reason: 'tool_calls' };
  }
  const text = scenario.long ? longAnswer(userText) : echoAnswer(userText);
  // What arrived with the message comes first, so a client can check its attachments got through.
  const seen = turn.kind === 'user' ? describeReceived(turn.received) : '';
  steps.push(...pieces('text', seen ? `${seen}\n\n${text}` : text));
  return { steps, reason: 'stop' };
}

/** The steps holding the first `tokens` tokens (a tool call's opening step counts as none). */
function firstTokens(steps: readonly Step[], tokens: number): Step[] {
  let seen = 0;
  const end = steps.findIndex((s) => s.kind !== 'tool_call' && ++seen > tokens);
  return end === -1 ? [...steps] : steps.slice(0, end);
}

/** Builds the script for one request: the answer, cut at the token limit, with the scenario's fault. */
export function planResponse(conv: Conversation, scenario: Scenario, ctx: PlanContext): Plan {
  if (scenario.fault === 'rate_limit') return { kind: 'rate_limit' };
  const full = answer(conv, scenario);
  const total = countTokens(full.steps);
  const limited = conv.maxOutputTokens !== undefined && total > conv.maxOutputTokens;
  const steps = limited ? firstTokens(full.steps, conv.maxOutputTokens ?? 0) : full.steps;
  const reason: FinishReason = limited ? 'length' : full.reason;
  const midway = firstTokens(steps, Math.max(1, Math.floor(countTokens(steps) / 2)));
  // A flaky request breaks like sim-interrupt on its first attempt and behaves normally on the retry.
  const fault = scenario.fault === 'flaky' ? (ctx.flakyAttemptFails ? 'interrupt' : 'none') : scenario.fault;
  switch (fault) {
    case 'stall':
      return {
        kind: 'script',
        steps: [
          ...firstTokens(steps, 5),
          { kind: 'pause', ms: ctx.stallMs },
          { kind: 'fail', failure: 'stalled', message: stalledMessage(ctx.stallMs) },
        ],
      };
    case 'interrupt':
      return {
        kind: 'script',
        steps: [...midway, { kind: 'fail', failure: 'interrupted', message: INTERRUPTED_MESSAGE }],
      };
    case 'drop':
      return { kind: 'script', steps: [...midway, { kind: 'drop' }] };
    case 'none':
      return { kind: 'script', steps: [...steps, { kind: 'finish', reason }] };
  }
}

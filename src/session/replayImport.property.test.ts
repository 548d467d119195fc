/**
 * Property: importing any file as a recording (`.sse` as exported, a JSON trace, or neither) in the
 * inspector never throws anything but its message for the import form, never hangs, and stores nothing the
 * app could not load again: refused, no conversation is added; replayed, the answer has ended and its
 * conversation's record reads back as a conversation. Inputs are real recordings from every protocol,
 * mutated (cut anywhere, bytes inserted, lines doubled, line ends changed) and random text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixtureText } from '../core/testing/fixtures.ts';
import { readConversationRecord } from '../state/formats/records.ts';
import { recordOf } from '../state/storage/storedConversation.ts';
import { createTestApp } from '../testing/testApp.tsx';

const seed = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {};

const recordings = [
  'chat/openai-parallel-tool-calls.sse',
  'chat/openrouter-comments-reasoning-details.sse',
  'anthropic/thinking-then-text.sse',
  'anthropic/tool-use-padded.sse',
  'responses/openai-reasoning-function-call-usage.sse',
  'responses/openai-error-then-failed.sse',
].map(fixtureText);

/** What a hostile or damaged recording holds in places: broken JSON, known events of the wrong shape, ids. */
const planted = fc.constantFrom(
  'data: {"type":"__proto__"}\n\n',
  'event: message_start\ndata: {"type":"message_start","message":null}\n\n',
  'data: {"choices":[{"delta":{"content":{"__proto__":1}}}]}\n\n',
  'data: {"type":"response.output_text.delta","delta":7}\n\n',
  'data: [DONE]\n\n',
  `data: ${'['.repeat(5_000)}\n\n`,
  `: ${'x'.repeat(100_000)}\n\n`,
  'retry: -1\nid: \u0000\n\n',
  '\uFEFF',
  '\r',
);

type Edit = (text: string) => string;

const edits: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map(
    (n): Edit =>
      (text) =>
        text.slice(0, n % (text.length + 1)),
  ),
  fc.tuple(fc.nat(), fc.oneof(planted, fc.string({ maxLength: 40 }))).map(
    ([n, insert]): Edit =>
      (text) => {
        const at = n % (text.length + 1);
        return text.slice(0, at) + insert + text.slice(at);
      },
  ),
  fc.tuple(fc.nat(), fc.nat({ max: 200 })).map(
    ([n, length]): Edit =>
      (text) => {
        const at = n % (text.length + 1);
        return text.slice(0, at) + text.slice(at + length);
      },
  ),
  fc.nat().map(
    (n): Edit =>
      (text) => {
        const lines = text.split('\n');
        const at = n % lines.length;
        return [...lines.slice(0, at + 1), ...lines.slice(at)].join('\n');
      },
  ),
  fc.constantFrom<Edit>(
    (text) => text.replaceAll('\n', '\r\n'),
    (text) => text.replaceAll('\n', '\r'),
    (text) => text.replaceAll('data: ', 'data:'),
    (text) => `\uFEFF${text}`,
  ),
);

const mutatedRecordings = fc
  .tuple(fc.constantFrom(...recordings), fc.array(edits, { minLength: 1, maxLength: 4 }))
  .map(([text, changes]) => changes.reduce((out, change) => change(out), text));

const anyFile = fc.oneof(
  { weight: 5, arbitrary: mutatedRecordings },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }).map((s) => `data: ${s}\n\n`) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
);

const importMessages =
  /^(?:This file is neither a recorded event stream|This JSON file is not a HopBase Chat trace|This trace has no "events" list\.|Event \d+ of this trace)/;

/** Within the time a person waits for a file at instant speed: longer counts as hung. */
const patienceMs = 5_000;

describe('importing a recording', () => {
  it('replays any file to an ended answer whose record loads, or refuses it with a message, storing nothing', async () => {
    const app = createTestApp();
    app.stores.conversations.getState().hydrate([], null);
    await fc.assert(
      fc.asyncProperty(anyFile, async (text) => {
        const before = app.stores.conversations.getState().order.length;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const hung = new Promise<'hung'>((resolve) => {
          timer = setTimeout(() => resolve('hung'), patienceMs);
        });
        const outcome = await Promise.race([
          app.session.replay('fuzzed.sse', text, 'instant', 'chat').then(
            () => 'replayed' as const,
            (error: unknown) => error,
          ),
          hung,
        ]);
        clearTimeout(timer);
        expect(outcome).not.toBe('hung');
        const state = app.stores.conversations.getState();
        if (outcome !== 'replayed') {
          expect((outcome as Error).message).toMatch(importMessages);
          expect(state.order).toHaveLength(before);
          return;
        }
        expect(state.order).toHaveLength(before + 1);
        const conversation = state.conversations[state.order[0]!]!;
        const answer = conversation.messages[0];
        expect(answer?.role === 'assistant' && answer.attempts.at(-1)?.turn.status).toMatch(
          /^(?:complete|error|interrupted)$/,
        );
        const read = readConversationRecord(`conversation:${conversation.id}`, recordOf(conversation));
        expect(read.kind).toBe('conversation');
      }),
      { ...seed, numRuns: 150 },
    );
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { emptyTurn, startWatch, type Turn } from '../../core/index.ts';
import { emptyRecording } from '../../state/domain/recordings.ts';
import type { AnswerSource, Attempt, AttemptTrace } from '../../state/domain/types.ts';
import type { AnswerLink, AnswerPhase, AnswerSnapshot } from '../../state/stores/answers.ts';
import { bannerFor, isWaitingForOutput } from './turnBanner.ts';

const watch = startWatch(0);
const gateway: AnswerSource = { kind: 'gateway' };
const replay: AnswerSource = { kind: 'replay', file: 'turn.sse' };
const text = { text: 'Hi', parts: [{ kind: 'text' as const, key: 't0', text: 'Hi' }] };
const cut: Partial<Turn> = { ...text, status: 'interrupted', error: { code: 'interrupted', message: 'cut' } };

function attempt(
  turn: Partial<Turn>,
  trace: Partial<AttemptTrace> = {},
  httpError: Attempt['httpError'] = null,
) {
  return {
    id: 'att',
    startedAt: 0,
    request: { url: '/v1/chat/completions', path: '/chat/completions', headers: {}, body: {} },
    sentHeaders: {},
    turn: { ...emptyTurn, ...turn },
    httpError,
    trace: { ...emptyRecording(), ...trace },
  } satisfies Attempt;
}

const live = (
  phase: AnswerPhase = { kind: 'streaming', watch },
  link: AnswerLink = 'direct',
): AnswerSnapshot => ({
  conversationId: 'c',
  messageId: 'm',
  attempt: attempt({ status: 'streaming' }),
  phase,
  link,
});
const retrying = (at: number): AnswerSnapshot => live({ kind: 'retrying', at, attempt: 2, of: 3 });

/** 30 s of keepalives only between the last output and the cut. */
const silentThenCut = {
  endedAt: 30_100,
  items: [{ t: 100, kind: 'event' as const, event: 'message', data: '{}' }],
};
const rateLimited = {
  status: 429,
  code: 'rate_limit_exceeded',
  message: 'slow down',
  retryable: true,
  retryAfterSeconds: 2,
  requestId: null,
};

describe('bannerFor', () => {
  it.each([
    ['streaming, live', attempt({ status: 'streaming' }), live(), gateway, { kind: 'stall', watch }],
    [
      'streaming, relayed by the server',
      attempt({ status: 'streaming' }),
      live(undefined, 'relayed'),
      gateway,
      { kind: 'stall', watch },
    ],
    [
      'streaming, reconnecting to the server that runs it',
      attempt({ status: 'streaming' }),
      live(undefined, 'reconnecting'),
      gateway,
      { kind: 'reconnecting' },
    ],
    [
      'streaming, no live state (another tab)',
      attempt({ status: 'streaming' }),
      undefined,
      gateway,
      { kind: 'none' },
    ],
    [
      'waiting to retry automatically',
      attempt({ status: 'error', error: { code: 'http_429', message: 'x' } }),
      retrying(5_000),
      gateway,
      { kind: 'auto-retry', retryAt: 5_000, attempt: 2, of: 3 },
    ],
    ['complete', attempt({ ...text, status: 'complete' }), undefined, gateway, { kind: 'none' }],
    [
      'cut right after output',
      attempt(cut, { endedAt: 200, items: [{ t: 100, kind: 'event', event: 'message', data: '{}' }] }),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: undefined, canRetry: true },
    ],
    [
      'cut after a silence past the threshold',
      attempt(cut, silentThenCut),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: 30_000, canRetry: true },
    ],
    [
      'reloaded: the silence its record kept, its events still in the database',
      attempt(cut, { endedAt: 30_100, bytes: 900, silenceBeforeEndMs: 30_000 }),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: 30_000, canRetry: true },
    ],
    [
      'reloaded without that figure (an older record): no silence claimed from missing events',
      attempt(cut, { headersAt: 50, endedAt: 30_100, bytes: 900 }),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: undefined, canRetry: true },
    ],
    [
      'a replay cannot be retried',
      attempt(cut, silentThenCut),
      undefined,
      replay,
      { kind: 'interruption', silentBeforeMs: 30_000, canRetry: false },
    ],
    [
      'an HTTP error has no silence before it',
      attempt(
        { status: 'error', error: { code: 'rate_limit_exceeded', message: 'slow down' } },
        silentThenCut,
        rateLimited,
      ),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: undefined, canRetry: true },
    ],
    [
      'an attached file is gone: nothing to send again',
      attempt({ status: 'error', error: { code: 'attachment_missing', message: 'gone' } }),
      undefined,
      gateway,
      { kind: 'interruption', silentBeforeMs: undefined, canRetry: false },
    ],
  ] as const)('%s', (_name, a, l, source, expected) => {
    expect(bannerFor(a, l, { source, silentModelMs: 20_000 })).toEqual(expected);
  });

  it('names a silence only from the stall threshold on', () => {
    const a = attempt(cut, silentThenCut);
    expect(bannerFor(a, undefined, { source: gateway, silentModelMs: 30_001 })).toMatchObject({
      silentBeforeMs: undefined,
    });
    expect(bannerFor(a, undefined, { source: gateway, silentModelMs: 30_000 })).toMatchObject({
      silentBeforeMs: 30_000,
    });
  });
});

describe('isWaitingForOutput', () => {
  it.each([
    ['streaming, nothing yet', attempt({ status: 'streaming' }), live(), true],
    ['streaming with output', attempt({ ...text, status: 'streaming' }), live(), false],
    ['waiting to retry', attempt({ status: 'streaming' }), retrying(1), false],
    ['finished', attempt({ status: 'complete' }), undefined, false],
  ] as const)('%s', (_name, a, l, expected) => {
    expect(isWaitingForOutput(a, l)).toBe(expected);
  });
});

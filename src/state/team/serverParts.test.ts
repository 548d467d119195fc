import { describe, expect, it } from 'vitest';
import { answerMessage } from '../../testing/builders.ts';
import type { Attempt, Conversation } from '../domain/types.ts';
import { ServerParts } from './serverParts.ts';
import type { TeamApi } from './teamApi.ts';

/** A conversation whose three answers' bodies stand as `requests` says: in memory, apart, damaged. */
function conversation(requests: Attempt['request'][]): Conversation {
  return {
    id: 'conv_1',
    title: 'Ferries',
    createdAt: 0,
    updatedAt: 0,
    messages: requests.map((request, n) => {
      const answer = answerMessage(`msg_${n}`, { status: 'complete', text: 'Yes.' });
      return { ...answer, attempts: answer.attempts.map((a) => ({ ...a, request })) };
    }),
  };
}

describe('the request bodies sent beside a record', () => {
  it('are read from this browser when a load left them there; a damaged or absent one is not sent', async () => {
    const sent: [string, unknown][] = [];
    const api = {
      putAttemptRecord: async (kind: string, attemptId: string, _conversation: string, record: unknown) => {
        if (kind === 'requests') sent.push([attemptId, record]);
        return { ok: true, value: {} };
      },
    } as unknown as TeamApi;
    const here = new Map([['msg_1_att', { model: 'kept here' }]]);
    const parts = new ServerParts(api, {
      attachment: async () => undefined,
      recordingKeptApart: async () => undefined,
      bodyKeptApart: async (attemptId) => here.get(attemptId),
    });
    const request = { url: '/v1/chat/completions', path: '/chat/completions', headers: {} };
    const failed = await parts.send(
      conversation([
        { ...request, body: { model: 'in memory' } },
        { ...request, body: {}, bodyMissing: 'missing' },
        { ...request, body: {}, bodyMissing: 'unreadable' },
        { ...request, body: {}, bodyMissing: 'missing' },
      ]),
    );
    expect(failed).toBeUndefined();
    expect(sent).toEqual([
      ['msg_0_att', { body: { model: 'in memory' } }],
      ['msg_1_att', { body: { model: 'kept here' } }],
    ]);
  });
});

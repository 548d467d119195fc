import { renderHook } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Protocol } from '../core/index.ts';
import { fixtureBytes } from '../core/testing/fixtures.ts';
import type { AssistantMessage } from '../state/domain/types.ts';
import { createTestApp } from '../testing/testApp.tsx';
import { useProtocolStream } from './useProtocolStream.ts';

const cases: [Protocol, string, string][] = [
  ['chat', '/v1/chat/completions', 'chat/openai-json-text-usage.sse'],
  ['responses', '/v1/responses', 'responses/openai-text.sse'],
  ['messages', '/v1/messages', 'anthropic/text-padded.sse'],
];

describe('useProtocolStream, keyed by protocol', () => {
  it.each(cases)('%s sends to its own path and streams the answer in', async (protocol, url, file) => {
    const app = createTestApp();
    const fetchMock = vi.fn<typeof fetch>(
      async () =>
        new Response(new Uint8Array(fixtureBytes(file)), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    app.setFetch(fetchMock);

    const { result } = renderHook(() => useProtocolStream(protocol), { wrapper: app.wrapper });
    await act(() => result.current.send('Hello'));

    expect(String(fetchMock.mock.calls[0]![0])).toBe(url);
    const { activeId, conversations } = app.stores.conversations.getState();
    const answer = conversations[activeId!]!.messages[1] as AssistantMessage;
    expect(answer.protocol).toBe(protocol);
    expect(answer.attempts[0]!.turn.status).toBe('complete');
    expect(answer.attempts[0]!.turn.text.length).toBeGreaterThan(0);
  });

  it('sends the next message in the new protocol once the key changes', async () => {
    const app = createTestApp();
    const fetchMock = vi.fn<typeof fetch>(
      async () =>
        new Response(new Uint8Array(fixtureBytes('anthropic/text-padded.sse')), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    app.setFetch(fetchMock);
    const { result, rerender } = renderHook(({ protocol }) => useProtocolStream(protocol), {
      wrapper: app.wrapper,
      initialProps: { protocol: 'chat' as Protocol },
    });
    const first = result.current;
    rerender({ protocol: 'messages' });
    expect(result.current).not.toBe(first);
    await act(() => result.current.send('Hello'));
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/v1/messages');
  });
});

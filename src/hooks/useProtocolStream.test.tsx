import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderHook } from '@testing-library/react';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Protocol } from '../core/index.ts';
import { fixturesDir } from '../core/testing/fixtures.ts';
import { useConversationStore } from '../state/conversationStore.ts';
import type { AssistantMessage } from '../state/types.ts';
import { useChatCompletionsStream, useMessagesStream, useResponsesStream } from './useProtocolStream.ts';

const initialConversations = useConversationStore.getState();

afterEach(() => {
  vi.unstubAllGlobals();
  useConversationStore.setState(initialConversations, true);
});

const cases: [string, () => ReturnType<typeof useChatCompletionsStream>, Protocol, string, string][] = [
  [
    'useChatCompletionsStream',
    useChatCompletionsStream,
    'chat',
    '/v1/chat/completions',
    'chat/openai-json-text-usage.sse',
  ],
  ['useResponsesStream', useResponsesStream, 'responses', '/v1/responses', 'responses/openai-text.sse'],
  ['useMessagesStream', useMessagesStream, 'messages', '/v1/messages', 'anthropic/text-padded.sse'],
];

describe('one streaming hook per protocol', () => {
  it.each(cases)(
    '%s sends with its protocol and streams the answer in',
    async (_name, hook, protocol, url, file) => {
      const bytes = readFileSync(path.join(fixturesDir, file));
      const fetchMock = vi.fn<typeof fetch>(
        async () => new Response(bytes, { headers: { 'content-type': 'text/event-stream' } }),
      );
      vi.stubGlobal('fetch', fetchMock);

      const { result } = renderHook(hook);
      await act(() => result.current.send('Hello'));

      expect(String(fetchMock.mock.calls[0]![0])).toBe(url);
      const { activeId, conversations } = useConversationStore.getState();
      const answer = conversations[activeId!]!.messages[1] as AssistantMessage;
      expect(answer.protocol).toBe(protocol);
      expect(answer.attempts[0]!.turn.status).toBe('complete');
      expect(answer.attempts[0]!.turn.text.length).toBeGreaterThan(0);
    },
  );
});

import { useMemo } from 'react';
import type { Protocol } from '../core/index.ts';
import { retryMessage, sendMessage, stopMessage, submitToolResult } from './conversationActions.ts';

export interface ProtocolStream {
  send(text: string): Promise<void>;
  submitToolResult(conversationId: string, toolCallId: string, name: string, content: string): Promise<void>;
  retry(conversationId: string, messageId: string): Promise<void>;
  stop(messageId: string): void;
}

/** Streaming for one protocol: the core's shared reader with that protocol's adapter, writing into the stores. */
export function useProtocolStream(protocol: Protocol): ProtocolStream {
  return useMemo(
    () => ({
      send: (text) => sendMessage(text, protocol),
      submitToolResult: (conversationId, toolCallId, name, content) =>
        submitToolResult(conversationId, toolCallId, name, content, protocol),
      retry: retryMessage,
      stop: stopMessage,
    }),
    [protocol],
  );
}

export const useChatCompletionsStream = () => useProtocolStream('chat');
export const useResponsesStream = () => useProtocolStream('responses');
export const useMessagesStream = () => useProtocolStream('messages');

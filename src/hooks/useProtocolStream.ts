import { useMemo } from 'react';
import type { Protocol } from '../core/index.ts';
import type { AttachmentRef } from '../state/domain/types.ts';
import { useServices } from './appContext.tsx';

export interface ProtocolStream {
  send(text: string, attachments?: readonly AttachmentRef[]): Promise<void>;
  submitToolResult(conversationId: string, toolCallId: string, name: string, content: string): Promise<void>;
  retry(conversationId: string, messageId: string): Promise<void>;
  regenerate(conversationId: string, messageId: string): Promise<void>;
  edit(
    conversationId: string,
    messageId: string,
    text: string,
    attachments: readonly AttachmentRef[],
  ): Promise<void>;
  stop(messageId: string): void;
}

/**
 * Streaming in one protocol, keyed by it: the session's shared reader with that protocol's adapter.
 * Retry, Regenerate and Stop act on a message in the protocol it was sent with, whatever `protocol` is
 * now; an edit is answered in `protocol`, like a message sent.
 */
export function useProtocolStream(protocol: Protocol): ProtocolStream {
  const { session } = useServices();
  return useMemo(
    () => ({
      send: (text, attachments) => session.send(text, protocol, attachments),
      submitToolResult: (conversationId, toolCallId, name, content) =>
        session.submitToolResult(conversationId, toolCallId, name, content, protocol),
      retry: (conversationId, messageId) => session.retry(conversationId, messageId),
      regenerate: (conversationId, messageId) => session.regenerate(conversationId, messageId),
      edit: (conversationId, messageId, text, attachments) =>
        session.edit(conversationId, messageId, text, protocol, attachments),
      stop: (messageId) => session.stop(messageId),
    }),
    [session, protocol],
  );
}

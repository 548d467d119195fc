import { authHeaders, type Protocol, redactedAuthHeaders, relayHeader } from '../../core/index.ts';
import type { AttachmentRef, SentRequest } from '../../state/domain/types.ts';
import type { AttachmentBlobs } from '../../state/storage/attachmentBlobs.ts';
import { bodyWithAttachments } from '../attachmentData.ts';
import type { BlockedConnections } from '../blockedConnections.ts';
import { isCrossOrigin } from '../gateway.ts';
import { isRelay, type RelayAccess } from './relayedBody.ts';
import { ServerRelay } from './serverRelay.ts';
import type { AttemptLabel, StreamSource } from './streamSource.ts';

export interface GatewayAccess {
  fetch: typeof fetch;
  /** The key in Settings at the moment an attempt is sent. */
  apiKey(): string;
  attachments: AttachmentBlobs;
  /** An attachment as the messages that carry it name it. */
  attachmentRef(id: string): AttachmentRef | undefined;
  refused: BlockedConnections;
  /** How the page reaches this app's own server when it runs the answer (same origin only). */
  relay: RelayAccess;
}

/** The gateway in Settings, with the credentials of the moment each attempt is sent. */
export function gatewaySource(protocol: Protocol, request: SentRequest, access: GatewayAccess): StreamSource {
  return {
    source: { kind: 'gateway' },
    retriesOnItsOwn: true,
    connect(attempt) {
      const crossOrigin = isCrossOrigin(request.url);
      const apiKey = access.apiKey();
      const credentials = authHeaders(protocol, apiKey, crossOrigin);
      let relay: ServerRelay | null = null;
      return {
        open: async (signal, link) => {
          // Stored with placeholders: each attachment's bytes go in now, the same every time.
          const body = bodyWithAttachments(request.body, access.attachmentRef, access.attachments);
          const response = await access.fetch(request.url, {
            method: 'POST',
            headers: { ...request.headers, ...credentials, ...(!crossOrigin && labelHeaders(attempt)) },
            // Without attachments, no wait: the request leaves before the message is drawn.
            body: typeof body === 'string' ? body : await body,
            signal,
          });
          if (crossOrigin || !isRelay(response)) return response;
          relay = new ServerRelay(attempt.attemptId, access.relay);
          link.relayed();
          return relay.body(response, signal, link);
        },
        stored: () => relay?.forget(),
        recordingTime: (received) => relay?.recordingTime(received),
        sentHeaders: { ...request.headers, ...redactedAuthHeaders(protocol, apiKey, crossOrigin) },
        crossOrigin,
        refusedByPolicy: () => access.refused.blocked(request.url),
      };
    },
  };
}

/**
 * The attempt named to this app's own server (which records each attempt's usage in team mode, runs the
 * answer when it can and relays it, and never forwards these); never to another origin, where they would
 * only cost a CORS preflight.
 */
function labelHeaders({ conversationId, attemptId }: AttemptLabel): Record<string, string> {
  return {
    'x-hopbase-conversation': conversationId,
    'x-hopbase-attempt': attemptId,
    [relayHeader]: '1',
  };
}

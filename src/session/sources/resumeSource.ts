import type { Attempt } from '../../state/domain/types.ts';
import type { RelayAccess } from './relayedBody.ts';
import { ServerRelay } from './serverRelay.ts';
import type { StreamSource } from './streamSource.ts';

/**
 * An attempt the server is running, picked up again (after a reload, on another device): its stream read
 * from the server's first piece on, with no new request to the gateway. Nothing to retry on its own.
 */
export function resumeSource(attempt: Attempt, access: RelayAccess): StreamSource {
  const relay = new ServerRelay(attempt.id, access);
  return {
    source: { kind: 'gateway' },
    retriesOnItsOwn: false,
    connect: () => ({
      open: async (signal, link) => relay.body(null, signal, link),
      stored: () => relay.forget(),
      recordingTime: (received) => relay.recordingTime(received),
      sentHeaders: attempt.sentHeaders,
      crossOrigin: false,
    }),
  };
}

import { readTraceRecord } from '../formats/records.ts';
import type { AttachmentBlobs } from '../storage/attachmentBlobs.ts';
import type { PartsElsewhere } from '../storage/partReads.ts';
import type { RecordingsElsewhere } from '../storage/recordingReads.ts';
import { type BodiesElsewhere, readBodyRecord } from '../storage/storedRequests.ts';
import type { TeamApi } from './teamApi.ts';

/**
 * What another device of the person sent to the server (`serverParts.ts`), read when this one needs it:
 * the bytes of a file attached there, a recording the inspector asks for, a request body the inspector or
 * a Retry asks for. A file and a body are read once: they are kept here from then on.
 */

/** This browser's attached files, and the server's when one is not here. */
export function attachmentsWithServer(here: AttachmentBlobs, api: TeamApi): AttachmentBlobs {
  return {
    put: (files) => here.put(files),
    remove: (ids) => here.remove(ids),
    async get(id) {
      const kept = await here.get(id);
      if (kept) return kept;
      const blob = await api.attachment(id);
      if (!blob) return undefined;
      await here.put([{ ref: { id, name: id, mimeType: blob.type, size: blob.size, kind: 'text' }, blob }]);
      return blob;
    },
  };
}

/** The server's records of `kind`, each read as IndexedDB's are (one it cannot read counts as not there). */
function attemptRecordsFromServer<T>(
  api: TeamApi,
  kind: 'recordings' | 'requests',
  read: (value: unknown) => T | string,
): PartsElsewhere<T> {
  return async (attemptIds) => {
    const found = new Map<string, T>();
    await Promise.all(
      attemptIds.map(async (id) => {
        const value = await api.attemptRecord(kind, id);
        const part = value === undefined ? undefined : read(value);
        if (part !== undefined && typeof part !== 'string') found.set(id, part);
      }),
    );
    return found;
  };
}

/** Recordings the server has. */
export function recordingsFromServer(api: TeamApi): RecordingsElsewhere {
  return attemptRecordsFromServer(api, 'recordings', readTraceRecord);
}

/** Request bodies the server has. */
export function bodiesFromServer(api: TeamApi): BodiesElsewhere {
  return attemptRecordsFromServer(api, 'requests', readBodyRecord);
}

import { readTraceRecord, type StoredTrace } from '../formats/records.ts';
import type { AttachmentBlobs } from '../storage/attachmentBlobs.ts';
import type { RecordingsElsewhere } from '../storage/recordingReads.ts';
import type { TeamApi } from './teamApi.ts';

/**
 * What another device of the person sent to the server (`serverParts.ts`), read when this one needs it:
 * the bytes of a file attached there, a recording the inspector asks for. Read once: a file is kept here
 * from then on.
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

/** Recordings the server has, each read as IndexedDB's are (one it cannot read counts as not there). */
export function recordingsFromServer(api: TeamApi): RecordingsElsewhere {
  return async (attemptIds) => {
    const found = new Map<string, StoredTrace>();
    await Promise.all(
      attemptIds.map(async (id) => {
        const value = await api.attemptRecord('recordings', id);
        const trace = value === undefined ? undefined : readTraceRecord(value);
        if (typeof trace === 'object') found.set(id, trace);
      }),
    );
    return found;
  };
}

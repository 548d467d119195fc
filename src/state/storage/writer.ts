import type { UseStore } from 'idb-keyval';
import { valuesOf } from '../domain/idRecord.ts';
import { newestIds, sameIds } from '../domain/recent.ts';
import { recordingKeptApart, recordingLimits } from '../domain/recordings.ts';
import type { AttemptTrace, Conversation } from '../domain/types.ts';
import { packedLines, type RecordingPart } from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import { applyStoredConversations, applyStoredSettings } from './applyStored.ts';
import type { ChangesFromElsewhere } from './changesFromElsewhere.ts';
import { errorText } from './database.ts';
import type { UnloadJournal } from './journal.ts';
import type { KnownState, RecordingPosition, SentTrace } from './knownState.ts';
import { attemptsOf } from './storedConversation.ts';
import { changedSettings } from './storedSettings.ts';
import { type TraceWrite, type Written, writeChanges } from './writeTransaction.ts';

export interface WriterParts {
  db: UseStore;
  stores: AppStores;
  known: KnownState;
  journal: UnloadJournal;
  elsewhere: ChangesFromElsewhere;
  /** How often a recording that still grows is written. */
  traceDelayMs: number;
  /** Called when a write failed: it is to be tried again. */
  retry: () => void;
  /** Called when a write left some of a recording for the next (`NextPart.upTo`): it is to run again soon. */
  more: () => void;
}

/** The part of a recording to write next (null: the whole of it, as one record), and how far it goes. */
interface NextPart {
  part: RecordingPart | null;
  /** Set when the part leaves some of the recording for the next write. */
  upTo?: RecordingPosition;
}

/**
 * The part of `trace` to write next. A recording that grows is written in parts (`putRecordingPart`): each
 * write only what came since the last one (a recording only grows while it streams), the final write too;
 * one that grew otherwise, or has as many parts as it may, starts again at part 0 with everything. A part
 * holds at most about `maxChars` of packed items and of stream: a fast stream's second was megabytes, packed
 * and cloned into IndexedDB in one long task.
 */
function nextPart(
  previous: SentTrace | undefined,
  trace: AttemptTrace,
  growing: boolean,
  maxChars: number,
): NextPart {
  const before = previous?.trace;
  const parts = previous?.parts;
  const items = previous?.upTo?.items ?? before?.items.length ?? 0;
  const raw = previous?.upTo?.raw ?? before?.raw.length ?? 0;
  const grew =
    before !== undefined &&
    parts !== undefined &&
    parts < recordingLimits.parts &&
    items <= trace.items.length &&
    (items === 0 || trace.items[items - 1] === before.items[items - 1]) &&
    raw <= trace.raw.length;
  if (grew) return partFrom(trace, parts, { items, raw }, maxChars);
  return growing ? partFrom(trace, 0, { items: 0, raw: 0 }, maxChars) : { part: null };
}

function partFrom(trace: AttemptTrace, seq: number, from: RecordingPosition, maxChars: number): NextPart {
  const { lines, end } = packedLines(trace.items, from.items, maxChars);
  const rawEnd = Math.min(trace.raw.length, from.raw + maxChars);
  const raw = trace.rawSlice?.(from.raw, rawEnd) ?? trace.raw.slice(from.raw, rawEnd);
  const part = { seq, packed: lines, raw };
  return end === trace.items.length && rawEnd === trace.raw.length
    ? { part }
    : { part, upTo: { items: end, raw: rawEnd } };
}

/**
 * The write of what this tab changed since the database last held it (`force`: every recording not yet
 * written too, however recently one was). After the write commits, what the database now holds is taken
 * in, the others are told (the change feed), and the unload journal goes once nothing is left to write. A failed write
 * is reported in `stores.storage` and retried.
 */
export function createWriter({
  db,
  stores,
  known,
  journal,
  elsewhere,
  traceDelayMs,
  retry,
  more,
}: WriterParts) {
  const { conversations: conversationStore, settings: settingsStore, storage } = stores;
  /** The conversations with a recording written in part (`SentTrace.upTo`): the next write goes on with it. */
  let unfinished: ReadonlySet<string> = new Set();

  function tracesToWrite(conversation: Conversation, force: boolean, now: number): TraceWrite[] {
    const out: TraceWrite[] = [];
    for (const attempt of attemptsOf(conversation)) {
      const previous = known.sentTraces.get(attempt.id);
      // Not in memory: the database holds it, and an empty copy must never replace it there.
      if ((previous?.trace === attempt.trace && !previous.upTo) || recordingKeptApart(attempt)) continue;
      const growing = attempt.turn.status === 'streaming';
      // A recording that still grows is written now and then (a part a second, or of `partBytes`), the rest
      // of one written in part at once; the final one always.
      if (
        !force &&
        previous &&
        !previous.upTo &&
        growing &&
        now - previous.at < traceDelayMs &&
        attempt.trace.bytes - previous.trace.bytes < recordingLimits.partBytes
      )
        continue;
      // What must go before the page does is written whole (`force`).
      const { part, upTo } = nextPart(
        previous,
        attempt.trace,
        growing,
        force ? Number.POSITIVE_INFINITY : recordingLimits.partBytes,
      );
      out.push({
        attempt,
        part,
        entry: { trace: attempt.trace, at: now, ...(part && { parts: part.seq + 1 }), ...(upTo && { upTo }) },
      });
    }
    return out;
  }

  return async function write(force: boolean): Promise<void> {
    const { conversations, activeId } = conversationStore.getState();
    const now = Date.now();
    const changed = known.changed(conversations);
    const deletions = known.pendingDeletions(conversations);
    const traces = new Map<string, TraceWrite[]>();
    const toWrite = force ? valuesOf(conversations) : [...changed];
    for (const id of force ? [] : unfinished)
      if (conversations[id] && !changed.includes(conversations[id])) toWrite.push(conversations[id]);
    for (const conversation of toWrite) {
      const list = tracesToWrite(conversation, force, now);
      if (list.length) traces.set(conversation.id, list);
    }
    const settingsPatch = changedSettings(settingsStore.getState().settings, known.settings);
    const settingsChanged = Object.keys(settingsPatch).length > 0;
    const activeChanged = activeId !== known.activeId;
    if (!changed.length && !deletions.length && !traces.size && !settingsChanged && !activeChanged) {
      journal.clear();
      return;
    }
    for (const list of traces.values())
      for (const { attempt, entry } of list) known.sentTraces.set(attempt.id, entry);
    // The list of those last worked on goes with a write, never alone: reading it is only a head start.
    const recent = newestIds(conversations);
    const recentChanged = !sameIds(known.recent, recent);

    let written: Written;
    try {
      written = await writeChanges(
        db,
        {
          changed,
          deletions,
          traces,
          settings: settingsChanged ? settingsPatch : null,
          active: activeChanged ? { id: activeId } : null,
          recent: recentChanged ? recent : null,
        },
        known.bases,
        known.storedBodies,
        now,
      );
    } catch (error) {
      // Nothing of it was stored: the next flush writes it all again.
      for (const list of traces.values())
        for (const { attempt, entry } of list)
          if (known.sentTraces.get(attempt.id) === entry) known.sentTraces.delete(attempt.id);
      storage.getState().saveFailed(errorText(error));
      retry();
      return;
    }

    storage.getState().saved();
    if (activeChanged) known.activeId = activeId;
    if (recentChanged) known.recent = recent;
    const partial = new Set<string>();
    for (const [conversationId, list] of traces)
      for (const { attempt, entry } of list)
        if (entry.upTo) partial.add(conversationId);
        else known.committedTraces.set(attempt.id, attempt.trace);
    unfinished = partial;
    for (const id of written.bodies) known.storedBodies.add(id);
    const { outcomes, setAside } = written;
    storage.getState().noteUnreadable([...setAside, ...written.unreadable]);
    const upserts: Conversation[] = [];
    const removals: string[] = [];
    for (const { id, revision, stored, local } of outcomes) {
      known.bases.set(id, { revision, conversation: stored });
      if (stored === null) {
        if (local) removals.push(id);
        continue;
      }
      if (stored !== local) upserts.push(stored);
    }
    applyStoredConversations(
      conversationStore,
      known,
      upserts,
      removals,
      new Map(changed.map((c) => [c.id, c])),
    );
    if (written.settings) applyStoredSettings(settingsStore, known, written.settings, settingsPatch);
    elsewhere.announce({
      conversations: outcomes.map(({ id, revision }) => ({ id, revision })),
      settings: settingsChanged,
    });
    // The rest of a recording written in part goes next, in a task of its own.
    if (partial.size) more();
    if (journal.kept && !known.isDirty(conversationStore.getState().conversations)) journal.clear();
  };
}

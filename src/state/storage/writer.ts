import type { UseStore } from 'idb-keyval';
import { newestIds, sameIds } from '../domain/recent.ts';
import { recordingKeptApart } from '../domain/recordings.ts';
import type { AttemptTrace, Conversation } from '../domain/types.ts';
import { packedLines } from '../formats/records.ts';
import type { AppStores } from '../stores/appStores.ts';
import { applyStoredConversations, applyStoredSettings } from './applyStored.ts';
import type { ChangesFromElsewhere } from './changesFromElsewhere.ts';
import { errorText } from './database.ts';
import type { UnloadJournal } from './journal.ts';
import type { KnownState, SentTrace } from './knownState.ts';
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
}

/**
 * `trace`'s items packed: the lines packed for the same recording's last write, and those of the items
 * added since (a recording only grows while it streams; anything else is packed whole).
 */
function packedSince(previous: SentTrace | undefined, trace: AttemptTrace): string {
  const before = previous?.trace.items;
  const count = before?.length ?? 0;
  const grew =
    previous?.packed !== undefined &&
    count <= trace.items.length &&
    (count === 0 || trace.items[count - 1] === before?.[count - 1]);
  return grew ? previous.packed + packedLines(trace.items, count) : packedLines(trace.items);
}

/**
 * The write of what this tab changed since the database last held it (`force`: every recording not yet
 * written too, however recently one was). After the write commits, what the database now holds is taken
 * in, the others are told (the change feed), and the unload journal goes once nothing is left to write. A failed write
 * is reported in `stores.storage` and retried.
 */
export function createWriter({ db, stores, known, journal, elsewhere, traceDelayMs, retry }: WriterParts) {
  const { conversations: conversationStore, settings: settingsStore, storage } = stores;

  function tracesToWrite(conversation: Conversation, force: boolean, now: number): TraceWrite[] {
    const out: TraceWrite[] = [];
    for (const attempt of attemptsOf(conversation)) {
      const previous = known.sentTraces.get(attempt.id);
      // Not in memory: the database holds it, and an empty copy must never replace it there.
      if (previous?.trace === attempt.trace || recordingKeptApart(attempt)) continue;
      const growing = attempt.turn.status === 'streaming';
      // A recording that still grows is written now and then; the final one always.
      if (!force && previous && growing && now - previous.at < traceDelayMs) continue;
      const packed = packedSince(previous, attempt.trace);
      out.push({ attempt, packed, entry: { trace: attempt.trace, at: now, ...(growing && { packed }) } });
    }
    return out;
  }

  return async function write(force: boolean): Promise<void> {
    const { conversations, activeId } = conversationStore.getState();
    const now = Date.now();
    const changed = known.changed(conversations);
    const deletions = known.pendingDeletions(conversations);
    const traces = new Map<string, TraceWrite[]>();
    for (const conversation of force ? Object.values(conversations) : changed) {
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
    for (const list of traces.values())
      for (const { attempt } of list) known.committedTraces.set(attempt.id, attempt.trace);
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
    if (journal.kept && !known.isDirty(conversationStore.getState().conversations)) journal.clear();
  };
}

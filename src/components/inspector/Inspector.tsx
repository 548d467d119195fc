import { useEffect, useState } from 'react';
import { traceFigures } from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useConversations, useRecordingLoads, useSettings } from '../../hooks/useStores.ts';
import { type RecordingLoad, recordingKeptApart, recordingLimits } from '../../state/recordings.ts';
import { exportFileName, exportJsonTrace, exportSse, isPartial, scrub } from '../../state/traceExport.ts';
import type { AssistantMessage, Attempt } from '../../state/types.ts';
import { EventList } from './EventList.tsx';
import { Figures } from './Figures.tsx';
import { ImportZone } from './ImportZone.tsx';
import { Timeline } from './Timeline.tsx';
import './inspector.css';

export interface InspectorTarget {
  conversationId: string;
  messageId: string;
}

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const megabytes = (n: number) => `${(n / 1_000_000).toLocaleString('en-US')} MB`;

/** What the inspector says while a recording kept in the database is being read, or why it is not there. */
const loadNotes: Record<RecordingLoad, string> = {
  loading: 'Loading recording…',
  missing: 'This recording is not stored in this browser: only the answer and its usage are.',
  unreadable:
    'This recording could not be read. It is left as it is in this browser’s storage and can be downloaded from the notice about records that could not be read.',
  failed: 'This recording could not be read from this browser’s storage.',
};

function AttemptView({ message, conversationId }: { message: AssistantMessage; conversationId: string }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const apiKey = useSettings((s) => s.settings.apiKey);
  const { session, stores } = useServices();
  const index = chosen ?? message.attempts.length - 1;
  const attempt = message.attempts[index];
  // Kept in the database until now (after a reload, or from another tab): asked for, read in a moment.
  const keptApart = attempt !== undefined && recordingKeptApart(attempt);
  const attemptId = attempt?.id ?? '';
  const load = useRecordingLoads((s) => s.loads[attemptId]);
  useEffect(() => {
    if (keptApart) stores.recordings.getState().want(attemptId);
  }, [keptApart, attemptId, stores.recordings]);
  if (!attempt) return <p>No attempt recorded yet.</p>;
  const { trace, turn, request } = attempt;
  const figures = traceFigures(trace, turn.usage?.outputTokens ?? null, trace.outputEvents);

  /**
   * The attempt as it stands when a button is pressed: a streaming answer's progress since the last frame
   * is applied first, so that an export covers every byte received (as the figures then count them).
   */
  const current = (): { message: AssistantMessage; attempt: Attempt } => {
    session.flushProgress(message.id);
    const fresh = stores.conversations
      .getState()
      .conversations[conversationId]?.messages.find((m) => m.id === message.id);
    const freshAttempt =
      fresh?.role === 'assistant' ? fresh.attempts.find((a) => a.id === attempt.id) : undefined;
    return fresh?.role === 'assistant' && freshAttempt
      ? { message: fresh, attempt: freshAttempt }
      : { message, attempt };
  };

  return (
    <>
      {message.attempts.length > 1 ? (
        <fieldset className="attempt-tabs">
          <legend className="visually-hidden">Attempts</legend>
          {message.attempts.map((a, i) => (
            <button
              key={a.id}
              type="button"
              aria-pressed={i === index}
              className="btn btn-small"
              onClick={() => setChosen(i)}
            >
              Attempt {i + 1} · {a.turn.status}
            </button>
          ))}
        </fieldset>
      ) : null}
      {keptApart ? (
        <div className="recording-load">
          <p role="status">{loadNotes[load ?? 'loading']}</p>
          {load === 'failed' ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => stores.recordings.getState().want(attempt.id)}
            >
              Try again
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <Figures figures={figures} />
          <Timeline items={trace.items} endedAt={trace.endedAt} />
        </>
      )}
      {trace.truncated ? (
        <p className="cap-note" role="note">
          Recording capped at {recordingLimits.items.toLocaleString('en-US')} events,{' '}
          {megabytes(recordingLimits.itemChars)} of event data and {megabytes(recordingLimits.rawBytes)} of
          raw stream: the events, the timeline and the exports stop there (the file names say “capped”); bytes
          received counts everything.
        </p>
      ) : null}
      {isPartial(attempt) ? (
        <p className="partial-note" role="note">
          Partial: still streaming. Export and JSON trace write what has arrived so far, and the file names
          say “partial”.
        </p>
      ) : null}
      <div className="export-actions">
        <button
          type="button"
          className="btn btn-small"
          disabled={keptApart}
          onClick={() => {
            const now = current();
            download(
              exportFileName(now.message, now.attempt, 'sse'),
              exportSse(now.attempt, apiKey),
              'text/event-stream',
            );
          }}
        >
          Export
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={keptApart}
          onClick={() => {
            const now = current();
            download(
              exportFileName(now.message, now.attempt, 'json'),
              exportJsonTrace(now.message, now.attempt, apiKey),
              'application/json',
            );
          }}
        >
          JSON trace
        </button>
      </div>
      <details className="request">
        <summary>Request: POST {request.path}</summary>
        <p className="request-url">{request.url}</p>
        <pre>
          {Object.entries(attempt.sentHeaders)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n')}
        </pre>
        <pre>{scrub(JSON.stringify(request.body, null, 2), apiKey)}</pre>
      </details>
      {keptApart ? null : <EventList items={trace.items} />}
    </>
  );
}

/** The raw stream of a turn, its timings and its request; also where recordings are imported and replayed. */
export function Inspector({ target, onClose }: { target: InspectorTarget | null; onClose(): void }) {
  const message = useConversations((s) =>
    target
      ? s.conversations[target.conversationId]?.messages.find((m) => m.id === target.messageId)
      : undefined,
  );
  const protocol = useSettings((s) => s.settings.protocol);
  const { session } = useServices();
  return (
    <aside className="inspector" aria-label="Inspector">
      <header className="inspector-header">
        <h2>Inspector</h2>
        {message?.role === 'assistant' ? (
          <span className="inspector-subject">
            {message.protocol} · {message.model}
          </span>
        ) : null}
        <button type="button" className="btn btn-small" onClick={onClose}>
          Close inspector
        </button>
      </header>
      {message?.role === 'assistant' ? (
        <AttemptView key={message.id} message={message} conversationId={target!.conversationId} />
      ) : (
        <p className="inspector-empty">Choose “Inspect” on an answer to see what came down the wire.</p>
      )}
      <ImportZone onImport={(name, text, speed) => session.replay(name, text, speed, protocol)} />
    </aside>
  );
}

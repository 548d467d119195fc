import { useEffect, useState } from 'react';
import { traceFigures } from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useAnswer } from '../../hooks/useAnswer.ts';
import { useChoices } from '../../hooks/useChoices.ts';
import { usePrices } from '../../hooks/usePrices.ts';
import { useBodyLoads, useConversations, useRecordingLoads, useSettings } from '../../hooks/useStores.ts';
import type { MessageKey } from '../../i18n/catalogs/en.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { costOfAttempt } from '../../state/domain/cost.ts';
import type { PartLoad } from '../../state/domain/partLoads.ts';
import { recordingKeptApart, recordingLimits } from '../../state/domain/recordings.ts';
import type { AssistantMessage, Attempt, SentRequest } from '../../state/domain/types.ts';
import {
  exportFileName,
  exportJsonTrace,
  exportSse,
  isPartial,
  scrub,
} from '../../state/formats/traceExport.ts';
import { withAnswer } from '../../state/stores/answers.ts';
import { ViewCodeButton } from '../code/ViewCodeButton.tsx';
import { attemptFigure } from '../cost/costWords.ts';
import { downloadText } from '../shared/download.ts';
import { EventList } from './EventList.tsx';
import { Figures } from './Figures.tsx';
import { ImportZone } from './ImportZone.tsx';
import { Timeline } from './Timeline.tsx';
import './inspector.css';

export interface InspectorTarget {
  conversationId: string;
  messageId: string;
}

/** Why a request's body is not shown: it is no longer stored, or its record is damaged. */
const bodyNotes: Record<NonNullable<SentRequest['bodyMissing']>, MessageKey> = {
  missing: 'inspector.body.missing',
  unreadable: 'inspector.body.unreadable',
};

/** What the inspector says while a recording kept in the database is being read, or why it is not there. */
const loadNotes: Record<PartLoad, MessageKey> = {
  loading: 'inspector.load.loading',
  missing: 'inspector.load.missing',
  unreadable: 'inspector.load.unreadable',
  failed: 'inspector.load.failed',
};

/**
 * Why a request's body is not shown: while it is being read, that it is (a status), and when it cannot be
 * read now, a way to try again; else why it is not there.
 */
function BodyNote({
  missing,
  load,
  onTryAgain,
}: {
  missing: NonNullable<SentRequest['bodyMissing']>;
  /** How reading it goes, when it was asked for. */
  load: PartLoad | undefined;
  onTryAgain(): void;
}) {
  const { t } = useI18n();
  if (load === 'loading') return <p role="status">{t('inspector.body.loading')}</p>;
  // A record in this browser that cannot be read is that, whatever the conversation's record said.
  if (load !== 'failed') return <p role="note">{t(bodyNotes[load === 'unreadable' ? load : missing])}</p>;
  return (
    <div className="recording-load">
      <p role="status">{t('inspector.body.failed')}</p>
      <button type="button" className="btn btn-small" onClick={onTryAgain}>
        {t('inspector.tryAgain')}
      </button>
    </div>
  );
}

function AttemptView({ message, conversationId }: { message: AssistantMessage; conversationId: string }) {
  const [chosen, setChosen] = useState<number | null>(null);
  const apiKey = useSettings((s) => s.settings.apiKey);
  const { session, stores } = useServices();
  const i18n = useI18n();
  const { t, format } = i18n;
  const prices = usePrices();
  const index = chosen ?? message.attempts.length - 1;
  const attempt = message.attempts[index];
  // Kept in the database until now (after a reload, or from another tab): asked for, read in a moment.
  const keptApart = attempt !== undefined && recordingKeptApart(attempt);
  const attemptId = attempt?.id ?? '';
  const load = useRecordingLoads((s) => s.loads[attemptId]);
  useEffect(() => {
    if (keptApart) stores.recordings.getState().want(attemptId);
  }, [keptApart, attemptId, stores.recordings]);
  // Its body not in this browser (team mode: sent from another device): asked for, from the server if need be.
  const bodyApart = attempt?.request.bodyMissing === 'missing';
  const bodyLoad = useBodyLoads((s) => s.loads[attemptId]);
  useEffect(() => {
    if (bodyApart) stores.bodies.getState().want(attemptId);
  }, [bodyApart, attemptId, stores.bodies]);
  if (!attempt) return <p>{t('inspector.noAttempt')}</p>;
  const { trace, turn, request } = attempt;
  const figures = traceFigures(trace, turn.usage?.outputTokens ?? null, trace.outputEvents);
  const cost = attemptFigure(i18n, costOfAttempt(attempt, message.model, prices));

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
          <legend className="visually-hidden">{t('inspector.attempts')}</legend>
          {message.attempts.map((a, i) => (
            <button
              key={a.id}
              type="button"
              aria-pressed={i === index}
              className="btn btn-small"
              onClick={() => setChosen(i)}
            >
              {t('inspector.attempt', { n: i + 1, status: a.turn.status })}
            </button>
          ))}
        </fieldset>
      ) : null}
      {keptApart ? (
        <div className="recording-load">
          <p role="status">{t(loadNotes[load ?? 'loading'])}</p>
          {load === 'failed' ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => stores.recordings.getState().want(attempt.id)}
            >
              {t('inspector.tryAgain')}
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <Figures figures={figures} cost={cost} />
          <Timeline items={trace.items} endedAt={trace.endedAt} />
        </>
      )}
      {trace.truncated ? (
        <p className="cap-note" role="note">
          {t('inspector.capped', {
            items: recordingLimits.items,
            itemChars: format.bytes(recordingLimits.itemChars),
            rawBytes: format.bytes(recordingLimits.rawBytes),
          })}
        </p>
      ) : null}
      {isPartial(attempt) ? (
        <p className="partial-note" role="note">
          {t('inspector.partial')}
        </p>
      ) : null}
      <div className="export-actions">
        <button
          type="button"
          className="btn btn-small"
          disabled={keptApart}
          onClick={() => {
            const now = current();
            downloadText(
              exportFileName(now.message, now.attempt, 'sse'),
              exportSse(now.attempt, apiKey),
              'text/event-stream',
            );
          }}
        >
          {t('inspector.export')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          disabled={keptApart}
          onClick={() => {
            const now = current();
            downloadText(
              exportFileName(now.message, now.attempt, 'json'),
              exportJsonTrace(now.message, now.attempt, apiKey),
              'application/json',
            );
          }}
        >
          {t('inspector.jsonTrace')}
        </button>
        <ViewCodeButton message={message} attempt={attempt} />
      </div>
      <details className="request">
        <summary>{t('inspector.request', { path: request.path })}</summary>
        <p className="request-url">{request.url}</p>
        <pre>
          {Object.entries(attempt.sentHeaders)
            .map(([name, value]) => `${name}: ${value}`)
            .join('\n')}
        </pre>
        {request.bodyMissing ? (
          <BodyNote
            missing={request.bodyMissing}
            load={bodyApart ? (bodyLoad ?? 'loading') : undefined}
            onTryAgain={() => stores.bodies.getState().want(attempt.id)}
          />
        ) : (
          <pre>{scrub(JSON.stringify(request.body, null, 2), apiKey)}</pre>
        )}
      </details>
      {keptApart ? null : <EventList items={trace.items} />}
    </>
  );
}

/** The raw stream of a turn, its timings and its request; also where recordings are imported and replayed. */
export function Inspector({ target, onClose }: { target: InspectorTarget | null; onClose(): void }) {
  const stored = useConversations((s) =>
    target
      ? s.conversations[target.conversationId]?.messages.find((m) => m.id === target.messageId)
      : undefined,
  );
  // In flight, the answer's own snapshot is newer than the conversation store's checkpoint.
  const answer = useAnswer(target?.messageId ?? '');
  const message = stored?.role === 'assistant' ? withAnswer(stored, answer) : stored;
  const { protocol } = useChoices();
  const { session } = useServices();
  const { t } = useI18n();
  return (
    <aside className="inspector" aria-label={t('inspector.label')}>
      <header className="inspector-header">
        <h2>{t('inspector.label')}</h2>
        {message?.role === 'assistant' ? (
          <span className="inspector-subject">
            {message.protocol} · {message.model}
          </span>
        ) : null}
        <button type="button" className="btn btn-small" onClick={onClose}>
          {t('inspector.close')}
        </button>
      </header>
      {message?.role === 'assistant' ? (
        <AttemptView key={message.id} message={message} conversationId={target!.conversationId} />
      ) : (
        <p className="inspector-empty">{t('inspector.empty')}</p>
      )}
      <ImportZone onImport={(name, text, speed) => session.replay(name, text, speed, protocol)} />
    </aside>
  );
}

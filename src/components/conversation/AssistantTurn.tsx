import { memo, useContext, useEffect, useRef, useState } from 'react';
import {
  adapters,
  argumentsComplete,
  maxAutomaticRounds,
  type PriceTable,
  structuredAnswerOf,
  structuredOutputTool,
  type Turn,
} from '../../core/index.ts';
import { useAnswer } from '../../hooks/useAnswer.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { Version } from '../../state/domain/branches.ts';
import { costOfAnswer } from '../../state/domain/cost.ts';
import type { AssistantMessage, Attempt } from '../../state/domain/types.ts';
import { sumUsage } from '../../state/domain/usage.ts';
import { withAnswer } from '../../state/stores/answers.ts';
import { currentAttempt } from '../../state/stores/conversationStore.ts';
import { AutoRetryBanner } from '../banners/AutoRetryBanner.tsx';
import { FinishNoticeBanner } from '../banners/FinishNoticeBanner.tsx';
import { InterruptionBanner } from '../banners/InterruptionBanner.tsx';
import { ReconnectingBanner } from '../banners/ReconnectingBanner.tsx';
import { StallBanner } from '../banners/StallBanner.tsx';
import { ViewCodeButton } from '../code/ViewCodeButton.tsx';
import { CostFigure } from '../cost/CostFigure.tsx';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';
import { CopyButton } from '../shared/CopyButton.tsx';
import { ReasoningNote } from '../turn/ReasoningNote.tsx';
import { ReasoningSection } from '../turn/ReasoningSection.tsx';
import { StructuredAnswerView } from '../turn/StructuredAnswerView.tsx';
import { ToolCallCard } from '../turn/ToolCallCard.tsx';
import { UsageLine } from '../turn/UsageLine.tsx';
import { RenderQueueContext } from './renderQueueContext.ts';
import { bannerFor, isWaitingForOutput } from './turnBanner.ts';
import { VersionSwitch } from './VersionSwitch.tsx';

export interface AssistantTurnProps {
  message: AssistantMessage;
  /** Results already sent, by tool call id. */
  toolResults: Record<string, string>;
  /**
   * Whether results may be sent for this answer's unanswered tool calls: only for the conversation's last
   * answer (nothing but tool results after it). A result for an older answer would land far from its call,
   * and every protocol rejects that.
   */
  canAnswerTools: boolean;
  /** False while an answer of this conversation streams: Regenerate would start a second one. */
  canRegenerate: boolean;
  /** Its place among the answers to the same request: null when it is the only one. */
  version: Version | null;
  /**
   * What it is priced with (`usePrices`), read once by the list that shows the answers: one query
   * observer per answer made a long conversation's first render that much longer.
   */
  prices: PriceTable;
  /**
   * Render the markdown only once the answer comes near the view (a long conversation opening): until
   * then its text shows as plain text, offscreen.
   */
  deferMarkdown?: boolean;
  /** Each takes the id of the message it acts on. */
  onRetry(messageId: string): void;
  /** Not given: no Regenerate (a compared column's answer). */
  onRegenerate?(messageId: string): void;
  onSelectVersion(messageId: string): void;
  onStop(messageId: string): void;
  onToolResult(toolCallId: string, name: string, content: string): void;
  onInspect?(messageId: string): void;
}

type AnswerStatus = 'complete' | 'streaming' | 'stopped' | 'stopped_incomplete' | 'incomplete' | 'failed';

/** A failed answer that produced something is marked incomplete: the partial output is kept. */
function statusOf(turn: Turn): AnswerStatus {
  const hasOutput = turn.parts.length > 0;
  switch (turn.status) {
    case 'complete':
    case 'streaming':
      return turn.status;
    case 'aborted':
      return hasOutput ? 'stopped_incomplete' : 'stopped';
    default:
      return hasOutput ? 'incomplete' : 'failed';
  }
}

/** An earlier attempt: how it ended, after how many tokens (or characters, when usage was not reported). */
function describeAttempt({ t }: Pick<I18n, 't'>, attempt: Attempt, n: number, count: number): string {
  const tokens = attempt.turn.usage?.outputTokens;
  return t('answer.attempt', {
    n,
    count,
    status: t('answer.status', { status: statusOf(attempt.turn) }),
    measure: tokens === undefined ? 'characters' : 'tokens',
    amount: tokens ?? attempt.turn.text.length,
  });
}

/** An answer's text: markdown, or until it comes near the view (when deferred), the same text as plain text. */
function TurnText({ text, streaming, defer }: { text: string; streaming: boolean; defer: boolean }) {
  const queue = useContext(RenderQueueContext);
  const [shown, setShown] = useState(!defer || streaming);
  const placeholder = useRef<HTMLDivElement>(null);
  // An answer streaming again (a retry) is live: it renders at once.
  if (streaming && !shown) setShown(true);
  useEffect(() => {
    if (shown) return;
    if (!queue || !placeholder.current) {
      setShown(true);
      return;
    }
    return queue.observe(placeholder.current, () => setShown(true));
  }, [queue, shown]);
  if (!shown) {
    return (
      <div ref={placeholder} className="md-deferred">
        {text}
      </div>
    );
  }
  return <LazyMarkdown text={text} streaming={streaming} />;
}

/** One answer: its content as it streams, what went wrong if anything, and what it cost. */
function AssistantTurnView(props: AssistantTurnProps) {
  const { toolResults, canAnswerTools, onToolResult, onInspect } = props;
  // In flight, the answer's own snapshot is newer than the conversation store's checkpoint.
  const answer = useAnswer(props.message.id);
  const message = withAnswer(props.message, answer);
  const retry = () => props.onRetry(message.id);
  const stop = () => props.onStop(message.id);
  const silentModelMs = useSettings((s) => s.settings.stallSilentSeconds * 1000);
  const deadConnectionMs = useSettings((s) => s.settings.stallDeadSeconds * 1000);
  const i18n = useI18n();
  const { t } = i18n;
  const attempt = currentAttempt(message);
  if (!attempt) return null;
  const { turn } = attempt;
  const streaming = turn.status === 'streaming';
  const earlier = message.attempts.slice(0, -1);
  const billed = sumUsage(message.attempts);
  // Every attempt priced, interrupted ones too: they were billed.
  const cost = costOfAnswer(message, props.prices);
  const label = adapters[message.protocol].label;
  const banner = bannerFor(attempt, answer, { source: message.source, silentModelMs });
  const status = statusOf(turn);
  const structured = turn.status === 'complete' ? structuredAnswerOf(attempt.request.body, turn) : null;

  return (
    <article
      data-testid="assistant-turn"
      data-message-id={message.id}
      className={`turn turn-${turn.status}`}
      aria-label={t('answer.label', { model: message.model, protocol: label })}
      aria-busy={streaming || answer !== undefined}
    >
      <header className="turn-header">
        <span className="badge">{label}</span>
        <span className="turn-model">{message.model}</span>
        {status === 'complete' ? null : (
          <span className={`status status-${turn.status}`}>{t('answer.status', { status })}</span>
        )}
        {props.version ? (
          <VersionSwitch
            version={props.version}
            label={t('answer.versions')}
            onSelect={props.onSelectVersion}
          />
        ) : null}
        <span className="turn-actions">
          {turn.text ? (
            <CopyButton text={turn.text} label={t('answer.copy')} className="btn btn-small" />
          ) : null}
          {turn.status === 'complete' && message.source.kind === 'gateway' && props.onRegenerate ? (
            // The same request again, as a new version beside this one: both stay, and both are billed.
            <button
              type="button"
              className="btn btn-small"
              disabled={!props.canRegenerate}
              onClick={() => props.onRegenerate?.(message.id)}
            >
              {t('answer.regenerate')}
            </button>
          ) : null}
          <ViewCodeButton message={message} attempt={attempt} />
          {onInspect ? (
            <button type="button" className="btn btn-small" onClick={() => onInspect(message.id)}>
              {t('answer.inspect')}
            </button>
          ) : null}
        </span>
      </header>

      {earlier.length > 0 ? (
        <details className="attempts">
          <summary>{t('answer.attempts', { count: message.attempts.length })}</summary>
          <ol>
            {earlier.map((a, i) => (
              <li key={a.id}>
                {describeAttempt(i18n, a, i + 1, message.attempts.length)}{' '}
                <ViewCodeButton message={message} attempt={a} n={i + 1} />
                {a.turn.text ? (
                  <blockquote>
                    {a.turn.text.length > 400 ? `${a.turn.text.slice(0, 400)}…` : a.turn.text}
                  </blockquote>
                ) : null}
              </li>
            ))}
          </ol>
        </details>
      ) : null}

      <ReasoningNote message={message} />
      {turn.reasoning ? <ReasoningSection text={turn.reasoning} streaming={streaming && !turn.text} /> : null}
      {turn.text ? (
        <div data-testid="turn-text">
          <TurnText text={turn.text} streaming={streaming} defer={props.deferMarkdown ?? false} />
        </div>
      ) : null}
      {turn.refusal ? <p className="refusal">{t('answer.refusal', { refusal: turn.refusal })}</p> : null}
      {structured ? <StructuredAnswerView answer={structured} /> : null}
      {turn.toolCalls.map((call) =>
        // Anthropic's forced answer tool is the structured answer above, not a call to answer.
        structured && call.name === structuredOutputTool ? null : (
          <ToolCallCard
            key={call.id || call.name}
            call={call}
            streaming={streaming}
            result={toolResults[call.id]}
            onSubmitResult={
              // A call cut off mid-arguments cannot be run: no result to send for it.
              canAnswerTools && turn.status === 'complete' && argumentsComplete(call.arguments)
                ? (content) => onToolResult(call.id, call.name, content)
                : undefined
            }
          />
        ),
      )}
      {message.automaticLimit ? (
        <p className="tool-warning">{t('tools.auto.limit', { max: maxAutomaticRounds })}</p>
      ) : null}
      {isWaitingForOutput(attempt, answer) ? (
        <p className="typing" role="status" aria-label={t('answer.waiting')}>
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span aria-hidden="true" />
        </p>
      ) : null}

      {banner.kind === 'auto-retry' ? (
        <AutoRetryBanner retryAt={banner.retryAt} attempt={banner.attempt} of={banner.of} onCancel={stop} />
      ) : null}
      {banner.kind === 'reconnecting' ? <ReconnectingBanner onStop={stop} /> : null}
      {banner.kind === 'stall' ? (
        <StallBanner
          watch={banner.watch}
          thresholds={{ silentModelMs, deadConnectionMs }}
          onRetry={retry}
          onStop={stop}
        />
      ) : null}
      <FinishNoticeBanner turn={turn} />
      {banner.kind === 'interruption' ? (
        <InterruptionBanner
          turn={turn}
          httpError={attempt.httpError}
          failedAt={attempt.startedAt + (attempt.trace.endedAt ?? 0)}
          silentBeforeMs={banner.silentBeforeMs}
          onRetry={banner.canRetry ? retry : undefined}
        />
      ) : null}

      <footer className="turn-footer">
        <div className="turn-usage-row">
          <UsageLine usage={turn.usage} status={turn.status} />
          <CostFigure
            attempts={cost.attempts.map((a) => ({
              cost: a.cost,
              status: t('answer.status', { status: statusOf(a.attempt.turn) }),
            }))}
            sum={cost.sum}
            model={message.model}
          />
        </div>
        {earlier.length > 0 ? (
          <p className="billed">
            {t('answer.billed', {
              attempts: message.attempts.length,
              input: billed.input,
              output: billed.output,
            })}
          </p>
        ) : null}
      </footer>
    </article>
  );
}

function sameVersion(a: Version | null, b: Version | null): boolean {
  return a === b || (a !== null && b !== null && a.position === b.position && a.count === b.count);
}

/**
 * While one answer streams, the others must not re-render on every frame: a turn re-renders when its
 * message, whether it may answer its tool calls or be regenerated, its versions, or the results of its own
 * tool calls change. Callbacks are not compared: they always act on the message they are given.
 */
function sameTurn(previous: AssistantTurnProps, next: AssistantTurnProps): boolean {
  if (
    previous.message !== next.message ||
    previous.canAnswerTools !== next.canAnswerTools ||
    previous.canRegenerate !== next.canRegenerate ||
    !sameVersion(previous.version, next.version) ||
    previous.deferMarkdown !== next.deferMarkdown ||
    previous.prices !== next.prices ||
    Boolean(previous.onInspect) !== Boolean(next.onInspect)
  )
    return false;
  const calls = currentAttempt(next.message)?.turn.toolCalls ?? [];
  return calls.every((call) => previous.toolResults[call.id] === next.toolResults[call.id]);
}

export const AssistantTurn = memo(AssistantTurnView, sameTurn);

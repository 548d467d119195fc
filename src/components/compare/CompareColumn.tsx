import { traceFigures } from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useAnswer } from '../../hooks/useAnswer.ts';
import { usePrices } from '../../hooks/usePrices.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { shownBranch } from '../../state/domain/branches.ts';
import { costOfAttempt } from '../../state/domain/cost.ts';
import type { AssistantMessage, Conversation } from '../../state/domain/types.ts';
import { withAnswer } from '../../state/stores/answers.ts';
import type { CompareColumn } from '../../state/stores/compareStore.ts';
import { currentAttempt } from '../../state/stores/conversationStore.ts';
import { AssistantTurn } from '../conversation/AssistantTurn.tsx';
import { attemptFigure } from '../cost/costWords.ts';
import { ModelField } from '../header/ModelSelect.tsx';
import { ProtocolField } from '../header/ProtocolSelect.tsx';
import { ReasoningField } from '../header/ReasoningSelect.tsx';
import { type FigureId, Figures } from '../inspector/Figures.tsx';

/** How fast the answer came, its longest silence and what it cost (its tokens below it, as every answer's). */
const columnFigures: readonly FigureId[] = ['time-to-first-token', 'output-rate', 'longest-silence', 'cost'];

/** An answer here has no versions to switch between and no tool results to send. */
const nothing = () => {};

export interface CompareColumnProps {
  column: CompareColumn;
  /** Its place, from 1: its name. */
  n: number;
  removable: boolean;
  conversation: Conversation | null;
  /** Its answer in the latest round, if it has one. */
  answerId: string | null;
  onInspect(messageId: string): void;
}

export function CompareColumnView({
  column,
  n,
  removable,
  conversation,
  answerId,
  onInspect,
}: CompareColumnProps) {
  const { t } = useI18n();
  const { stores } = useServices();
  const compare = stores.compare.getState();
  const set = (patch: Parameters<typeof compare.setColumn>[1]) => compare.setColumn(column.id, patch);
  const { protocol, model, reasoning } = column.choices;
  const message = answerId ? conversation?.messages.find((m) => m.id === answerId) : undefined;
  return (
    <fieldset className="compare-column">
      <legend className="compare-column-name">{t('compare.column', { n })}</legend>
      <div className="compare-fields">
        <ProtocolField className="compare-field" value={protocol} onChange={(p) => set({ protocol: p })} />
        <ReasoningField
          className="compare-field"
          protocol={protocol}
          value={reasoning}
          onChange={(l) => set({ reasoning: l })}
        />
        {/* An icon: the protocol and the reasoning level keep the row's room. */}
        <button
          type="button"
          className="btn btn-small compare-remove"
          aria-label={t('compare.removeColumn')}
          title={t('compare.removeColumn')}
          disabled={!removable}
          onClick={() => compare.removeColumn(column.id)}
        >
          <span aria-hidden="true">×</span>
        </button>
        <ModelField
          className="compare-field compare-field-model"
          protocol={protocol}
          value={model}
          onChange={(m) => set({ model: m })}
        />
      </div>
      {conversation && message?.role === 'assistant' ? (
        <ColumnAnswer conversation={conversation} message={message} onInspect={onInspect} />
      ) : (
        <p className="compare-empty">{t('compare.noAnswer')}</p>
      )}
    </fieldset>
  );
}

/** A column's answer with its figures, its own banners and Retry, and the choice to keep it. */
function ColumnAnswer({
  conversation,
  message,
  onInspect,
}: {
  conversation: Conversation;
  message: AssistantMessage;
  onInspect(messageId: string): void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const prices = usePrices();
  const { session, stores } = useServices();
  const answer = useAnswer(message.id);
  const attempt = currentAttempt(withAnswer(message, answer));
  const kept = shownBranch(conversation).some((m) => m.id === message.id);
  const figures =
    attempt &&
    traceFigures(attempt.trace, attempt.turn.usage?.outputTokens ?? null, attempt.trace.outputEvents);
  return (
    <div className="compare-answer">
      <div className="compare-summary">
        {figures && attempt ? (
          <Figures
            figures={figures}
            cost={attemptFigure(i18n, costOfAttempt(attempt, message.model, prices))}
            only={columnFigures}
          />
        ) : null}
        {kept ? (
          <p className="compare-kept">{t('compare.kept')}</p>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            disabled={answer !== undefined}
            onClick={() => {
              session.keep(message.id);
              // Back to the conversation, which now continues from this answer.
              stores.compare.getState().hide();
            }}
          >
            {t('compare.keep')}
          </button>
        )}
      </div>
      <AssistantTurn
        message={message}
        toolResults={{}}
        canAnswerTools={false}
        canRegenerate={false}
        version={null}
        prices={prices}
        onRetry={(id) => void session.retry(conversation.id, id)}
        onSelectVersion={nothing}
        onStop={(id) => session.stop(id)}
        onToolResult={nothing}
        onInspect={onInspect}
      />
    </div>
  );
}

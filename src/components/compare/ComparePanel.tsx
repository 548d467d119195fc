import { useServices } from '../../hooks/appContext.tsx';
import { useChoices } from '../../hooks/useChoices.ts';
import { useCompare } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Conversation } from '../../state/domain/types.ts';
import { maxCompareColumns } from '../../state/stores/compareStore.ts';
import { CompareColumnView } from './CompareColumn.tsx';
import './compare.css';

export interface ComparePanelProps {
  conversation: Conversation | null;
  onInspect(messageId: string): void;
}

/**
 * Models side by side: each column asks with its own protocol, model and reasoning level, the message box
 * sends one prompt to all of them, and their answers stream side by side (on a phone, a row that scrolls
 * sideways, column by column, above the message box).
 */
export function ComparePanel({ conversation, onInspect }: ComparePanelProps) {
  const { t } = useI18n();
  const { stores } = useServices();
  const columns = useCompare((s) => s.columns);
  const round = useCompare((s) => s.round);
  const choices = useChoices();
  // The latest round of the conversation shown; another conversation's is not this one's.
  const shownRound = round && conversation && round.conversationId === conversation.id ? round : null;
  const prompt = shownRound && conversation?.messages.find((m) => m.id === shownRound.promptId);
  return (
    <section className="compare" aria-label={t('compare.region')}>
      <div className="compare-head">
        {prompt?.role === 'user' ? (
          <p className="compare-prompt">{t('compare.prompt', { text: prompt.text })}</p>
        ) : (
          <p className="compare-hint">{t('compare.hint')}</p>
        )}
        <button
          type="button"
          className="btn btn-small"
          disabled={columns.length >= maxCompareColumns}
          onClick={() => stores.compare.getState().addColumn(columns.at(-1)?.choices ?? choices)}
        >
          {t('compare.addColumn')}
        </button>
      </div>
      <div className="compare-columns">
        {columns.map((column, index) => (
          <CompareColumnView
            key={column.id}
            column={column}
            n={index + 1}
            removable={columns.length > 1}
            conversation={conversation}
            answerId={shownRound?.answers[column.id]?.messageId ?? null}
            onInspect={onInspect}
          />
        ))}
      </div>
    </section>
  );
}

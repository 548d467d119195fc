import { priceFor } from '../../core/index.ts';
import { useChoices } from '../../hooks/useChoices.ts';
import { usePrices } from '../../hooks/usePrices.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { contextFill, NEAR_FULL } from '../../state/domain/contextFill.ts';
import type { Conversation } from '../../state/domain/types.ts';
import './cost.css';

/**
 * By the message box: how much of the model's context window (the price table's `max_input_tokens`) the
 * next request fills, the draft included, and a warning before it would not fit. Nothing without a window.
 */
export function ContextGauge({ conversation, draft }: { conversation: Conversation | null; draft: string }) {
  const { t } = useI18n();
  const { model } = useChoices();
  const window = priceFor(usePrices(), [model])?.max_input_tokens;
  const fill = contextFill(conversation, draft.length, window);
  if (!fill) return null;
  const values = { next: fill.next, window: fill.window, percent: fill.next / fill.window };
  return (
    <div className={`context-gauge context-${fill.level}`}>
      <meter
        aria-label={t('cost.context.label')}
        min={0}
        max={fill.window}
        low={fill.window * 0.7}
        high={fill.window * NEAR_FULL}
        optimum={0}
        value={Math.min(fill.next, fill.window)}
        aria-valuetext={t('cost.context.fill', values)}
      />
      <span className="context-figure">{t('cost.context.fill', values)}</span>
      <span className="context-warning" role="status">
        {fill.level === 'ok' ? '' : t(`cost.context.${fill.level}`, values)}
      </span>
    </div>
  );
}

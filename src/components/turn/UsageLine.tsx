import type { TurnStatus, Usage } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './turn.css';

/** Token counts for one turn, e.g. `14 in · 52 out · 66 total · 40 reasoning` (reasoning, cached and cache writes when not zero). */
export function UsageLine({ usage, status }: { usage: Usage | null; status: TurnStatus }) {
  const { t } = useI18n();
  if (usage === null) {
    // Usage normally arrives with the last event, so its absence only means something once the turn ended.
    if (status === 'streaming') return null;
    return (
      <p data-testid="turn-usage" className="turn-usage" title={t('usage.unknown.title')}>
        {t('usage.unknown')}
      </p>
    );
  }
  const counts = {
    input: usage.inputTokens,
    output: usage.outputTokens,
    total: usage.totalTokens,
    reasoning: usage.reasoningTokens ?? 0,
    cached: usage.cachedTokens ?? 0,
    written: usage.cacheWriteTokens ?? 0,
  };
  return (
    <p data-testid="turn-usage" className="turn-usage" title={t('usage.title', counts)}>
      {t('usage.line', counts)}
    </p>
  );
}

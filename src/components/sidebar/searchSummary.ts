import type { I18n } from '../../i18n/i18n.tsx';
import type { SearchOutcome } from '../../state/domain/conversationSearch.ts';
import type { UnreadConversations } from '../../state/stores/storageStatus.ts';

/** What a search found, in words (the sidebar's status line, read out by screen readers). */
export function outcomeSummary(
  { t }: Pick<I18n, 't'>,
  { total, results }: SearchOutcome,
  query: string,
): string {
  if (total === 0) return t('search.none', { query: query.trim() });
  return t('search.found', { total, more: total > results.length ? 'yes' : 'no', shown: results.length });
}

/**
 * The search's summary, and while a long history's older conversations are still being read, that more
 * may match: each language joins the two sentences its own way (Japanese and Chinese with no space).
 */
export function withStillReading(
  { t }: Pick<I18n, 't'>,
  summary: string,
  unread: UnreadConversations,
): string {
  if (unread.kind === 'none') return summary;
  const reading =
    unread.kind === 'counted' ? t('search.reading', { n: unread.count }) : t('search.readingSome');
  return t('search.withReading', { summary, reading });
}

import { useConversations } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import { type ConversationName, conversationName } from '../../state/domain/conversationTitle.ts';

/** A conversation's name in words: its title, or what stands for one in the person's language. */
function conversationLabel(name: ConversationName, t: I18n['t']): string {
  if (name.kind === 'titled') return name.title;
  return name.kind === 'replay' ? t('sidebar.replayTitle', { file: name.file }) : t('sidebar.untitled');
}

/** The label of conversation `id` (undefined once it is gone), as a string so that rows re-render only when it changes. */
export function useConversationLabel(id: string): string | undefined {
  const { t } = useI18n();
  return useConversations((s) => {
    const conversation = s.conversations[id];
    return conversation && conversationLabel(conversationName(conversation), t);
  });
}

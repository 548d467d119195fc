import type { I18n } from '../../i18n/i18n.tsx';

/**
 * What the system prompt dialog says under its box: whether the text is the default for new chats (the
 * one in Settings) or this chat's own, and when it is sent.
 */
export function systemPromptNote(
  { t }: Pick<I18n, 't'>,
  draft: string,
  defaultPrompt: string,
  started: boolean,
): string {
  return t('systemPrompt.note', {
    which: draft === defaultPrompt ? 'default' : 'own',
    started: started ? 'yes' : 'no',
  });
}

import type { ConversationChoices } from '../state/domain/types.ts';
import { choicesFor } from '../state/stores/conversationStore.ts';
import { useServices } from './appContext.tsx';
import { useConversations, useSettings } from './useStores.ts';

/** The choices of the open conversation (its own, or the settings' defaults for a new chat). */
export function useChoices(): ConversationChoices {
  const own = useConversations((s) =>
    s.activeId === null ? undefined : s.conversations[s.activeId]?.choices,
  );
  const protocol = useSettings((s) => s.settings.protocol);
  const model = useSettings((s) => s.settings.model);
  const reasoning = useSettings((s) => s.settings.reasoning);
  return choicesFor(own, { protocol, model, reasoning });
}

/**
 * A toolbar choice (protocol, model, reasoning level): the open conversation keeps it as its own, and it
 * becomes the default of the next new chat.
 */
export function useChoose(): (patch: Partial<ConversationChoices>) => void {
  const { stores } = useServices();
  return (patch) => {
    const { activeId, conversations, setChoices } = stores.conversations.getState();
    const conversation = activeId === null ? undefined : conversations[activeId];
    const chosen = { ...choicesFor(conversation?.choices, stores.settings.getState().settings), ...patch };
    if (activeId !== null && conversation?.messages.length) setChoices(activeId, chosen);
    stores.settings.getState().update(chosen);
  };
}

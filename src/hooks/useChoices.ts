import { choicesOf } from '../state/conversationStore.ts';
import type { ConversationChoices } from '../state/types.ts';
import { useServices } from './appContext.tsx';

/**
 * A toolbar choice (protocol, model, reasoning level): it becomes the setting in use, and the open
 * conversation remembers it, so that coming back to that conversation brings it back.
 */
export function useChoose(): (patch: Partial<ConversationChoices>) => void {
  const { stores } = useServices();
  return (patch) => {
    stores.settings.getState().update(patch);
    const { activeId, conversations, setChoices } = stores.conversations.getState();
    if (activeId !== null && conversations[activeId]?.messages.length)
      setChoices(activeId, choicesOf(stores.settings));
  };
}

import { useSyncExternalStore } from 'react';
import { addressChanged, conversationIdInPath } from '../state/domain/address.ts';
import { useConversations, useStorageStatus, useTeam } from './useStores.ts';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(addressChanged, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(addressChanged, onChange);
  };
}

const pathname = () => window.location.pathname;

/** The id the page's address names when no conversation here has it (a deleted one, someone else's link). */
export function useMissingConversation(): string | null {
  const id = conversationIdInPath(useSyncExternalStore(subscribe, pathname));
  const here = useConversations((s) => !s.hydrated || (id !== null && s.conversations[id] !== undefined));
  // Team mode: until the server has been heard, the conversation may be on its way.
  const arriving = useTeam((s) => s.account.mode === 'team' && s.connection === 'connecting');
  // A long history reads its older conversations after the first screen: it may be among them.
  const reading = useStorageStatus((s) => s.unread.kind !== 'none');
  return id !== null && !here && !arriving && !reading ? id : null;
}

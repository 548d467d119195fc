import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { preloadMarkdown } from '../components/markdown/LazyMarkdown.tsx';
import { useConversationStore } from '../state/conversationStore.ts';
import { loadState, openDatabase, startPersisting } from '../state/persistence.ts';
import { App } from './App.tsx';

const queryClient = new QueryClient();
const db = openDatabase();

const markdown = preloadMarkdown();

/** Whether the first screen shows an answer: then it waits for the renderer rather than flash plain text. */
function opensOnAnswer(): boolean {
  const { activeId, conversations } = useConversationStore.getState();
  const messages = activeId === null ? [] : (conversations[activeId]?.messages ?? []);
  return messages.some((message) => message.role === 'assistant');
}

// Persisted conversations load before the first render, so a reload never flashes an empty app.
loadState(db)
  .catch((error: unknown) => console.error('Could not load saved conversations', error))
  // A renderer that cannot be fetched resolves null: the answers then show as plain text.
  .then(() => (opensOnAnswer() ? markdown : undefined))
  .finally(() => {
    startPersisting(db);
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    );
  });

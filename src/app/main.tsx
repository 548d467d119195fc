import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadState, openDatabase, startPersisting } from '../state/persistence.ts';
import { App } from './App.tsx';

const queryClient = new QueryClient();
const db = openDatabase();

// Persisted conversations load before the first render, so a reload never flashes an empty app.
loadState(db)
  .catch((error: unknown) => console.error('Could not load saved conversations', error))
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

import { renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../testing/testApp.tsx';
import { ConversationList } from './ConversationList.tsx';
import { useConversationSearch } from './useConversationSearch.ts';

// The search's code cannot be fetched (a deploy replaced its chunk, the network is gone).
vi.mock('../../state/domain/conversationSearch.ts', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

describe('a search whose code cannot be fetched', () => {
  it('says so instead of staying on the normal list for ever', async () => {
    const { result } = renderHook(() => useConversationSearch({}, [], 'tea'));
    expect(result.current.kind).toBe('loading');
    await waitFor(() => expect(result.current.kind).toBe('unavailable'));
  });

  it('is idle while no search is on', () => {
    const { result } = renderHook(() => useConversationSearch(null, [], 'tea'));
    expect(result.current.kind).toBe('idle');
  });

  it('tells the person in the sidebar, and keeps the list', async () => {
    const app = createTestApp();
    app.stores.conversations.getState().newConversation();
    app.render(<ConversationList />);
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'tea');
    expect(
      await screen.findByText('Search could not be loaded. Check the connection, then type again.'),
    ).toHaveAttribute('role', 'status');
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });
});

import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { MissingConversationBanner } from './MissingConversationBanner.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
  app.stores.conversations.getState().hydrate([], null);
  window.history.replaceState(null, '', '/c/conv_far_down');
});

afterEach(() => window.history.replaceState(null, '', '/'));

it('waits while a long history reads its older conversations: the one named may be among them', () => {
  app.stores.storage.getState().readingRest({ kind: 'uncounted' });
  app.render(<MissingConversationBanner />);
  expect(screen.queryByRole('status')).toBeNull();
  act(() => app.stores.storage.getState().readingRest({ kind: 'none' }));
  expect(screen.getByRole('status')).toHaveTextContent(/not here|not found|no conversation/i);
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../testing/testApp.tsx';
import { LoadBoundary } from './LoadBoundary.tsx';

// A part whose code cannot be fetched, as when the network is gone or a deploy replaced its chunk.
const Unreachable = lazy(() => Promise.reject(new Error('Failed to fetch dynamically imported module')));

describe('LoadBoundary', () => {
  it('tells the person a part could not be loaded, keeps the rest, and closes', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onClose = vi.fn();
    createTestApp().render(
      <>
        <p>The conversation</p>
        <LoadBoundary onClose={onClose}>
          <Unreachable />
        </LoadBoundary>
      </>,
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('This part of the app could not be loaded');
    expect(screen.getByText('The conversation')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    // Focus moves to Close once the dialog has been shown (an effect, after the render).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus());
    await userEvent.setup().keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows the part when it loads', async () => {
    const Reachable = lazy(async () => ({ default: () => <p>Settings</p> }));
    createTestApp().render(
      <LoadBoundary onClose={() => {}}>
        <Reachable />
      </LoadBoundary>,
    );
    expect(await screen.findByText('Settings')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

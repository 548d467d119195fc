import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { CompareButton } from '../header/CompareButton.tsx';
import { ComparePanel } from './ComparePanel.tsx';

let app: TestApp;

beforeEach(() => {
  app = createTestApp();
});

const columns = () => within(screen.getByRole('region', { name: 'Compare' })).getAllByRole('group');

describe('ComparePanel', () => {
  it('opens with two columns asking as the toolbar does, adds up to four and removes any but the last', async () => {
    const user = userEvent.setup();
    app.render(
      <>
        <CompareButton />
        <ComparePanel conversation={null} onInspect={() => {}} />
      </>,
    );
    const button = screen.getByRole('button', { name: 'Compare' });
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    expect(columns()).toHaveLength(2);
    const second = screen.getByRole('group', { name: 'Column 2' });
    expect(screen.getByRole('group', { name: 'Column 1' })).toBeInTheDocument();
    await user.selectOptions(
      within(second).getByRole('combobox', { name: 'Protocol' }),
      'Anthropic Messages',
    );
    expect(app.stores.compare.getState().columns[1]?.choices.protocol).toBe('messages');
    expect(app.stores.compare.getState().columns[0]?.choices.protocol).toBe('chat');

    const add = screen.getByRole('button', { name: 'Add column' });
    await user.click(add);
    await user.click(add);
    expect(columns()).toHaveLength(4);
    expect(add).toBeDisabled();
    await user.click(
      within(screen.getByRole('group', { name: 'Column 1' })).getByRole('button', { name: 'Remove column' }),
    );
    expect(columns()).toHaveLength(3);
    // The column that was second is first now, with its own choices.
    expect(
      within(screen.getByRole('group', { name: 'Column 1' })).getByRole('combobox', { name: 'Protocol' }),
    ).toHaveValue('messages');
    await user.click(screen.getAllByRole('button', { name: 'Remove column' })[0]!);
    await user.click(screen.getAllByRole('button', { name: 'Remove column' })[0]!);
    expect(columns()).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Remove column' })).toBeDisabled();
    expect(screen.getByText('No answer in this column yet.')).toBeInTheDocument();
  });
});

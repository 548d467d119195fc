import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { markdownRenderer } from '../markdown/LazyMarkdown.tsx';
import { ReasoningSection } from './ReasoningSection.tsx';

const details = () => screen.getByRole('group') as HTMLDetailsElement;

let app: TestApp;
// As main.tsx does at startup: the markdown renderer is loaded before the first answer shows.
beforeEach(async () => {
  app = createTestApp();
  await markdownRenderer(app.markdown).load();
});

describe('ReasoningSection', () => {
  it('is open with "Thinking…" while streaming, collapsed "Reasoning" afterwards', () => {
    const { rerender } = app.render(<ReasoningSection text="Let me **check** the units." streaming />);
    expect(details().open).toBe(true);
    expect(screen.getByText('Thinking…').tagName).toBe('SUMMARY');
    expect(screen.getByText('check').tagName).toBe('STRONG');

    rerender(<ReasoningSection text="Let me **check** the units. Done." streaming={false} />);
    expect(details().open).toBe(false);
    expect(screen.getByText('Reasoning').tagName).toBe('SUMMARY');
    expect(details()).toHaveTextContent('Done.');
  });

  it('stays open after completion if the person reopened it', async () => {
    const user = userEvent.setup();
    const { rerender } = app.render(<ReasoningSection text="Step one" streaming />);
    await user.click(screen.getByText('Thinking…'));
    expect(details().open).toBe(false);
    await user.click(screen.getByText('Thinking…'));
    expect(details().open).toBe(true);

    rerender(<ReasoningSection text="Step one, two" streaming={false} />);
    expect(details().open).toBe(true);
  });

  it('can be opened after completion', async () => {
    const user = userEvent.setup();
    app.render(<ReasoningSection text="Hidden thoughts" streaming={false} />);
    expect(details().open).toBe(false);
    await user.click(screen.getByText('Reasoning'));
    expect(details().open).toBe(true);
  });

  it('renders raw HTML in reasoning as text', () => {
    const { container } = app.render(
      <ReasoningSection text="<img src=x onerror=alert(1)>" streaming={false} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
  });

  it('renders nothing for empty finished reasoning', () => {
    const { container } = app.render(<ReasoningSection text="" streaming={false} />);
    expect(container).toBeEmptyDOMElement();
  });
});

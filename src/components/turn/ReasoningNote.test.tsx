import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/i18n.tsx';
import type { AssistantMessage } from '../../state/domain/types.ts';
import { ReasoningNote, reasoningNotes } from './ReasoningNote.tsx';

const english = createI18n('en');

const message = (extra: Partial<AssistantMessage>): AssistantMessage => ({
  id: 'a',
  role: 'assistant',
  protocol: 'responses',
  model: 'm',
  source: { kind: 'gateway' },
  createdAt: 0,
  attempts: [],
  ...extra,
});

describe('ReasoningNote', () => {
  it('says nothing for an ordinary answer', () => {
    const { container } = render(<ReasoningNote message={message({})} />);
    expect(container).toBeEmptyDOMElement();
    expect(reasoningNotes(english, message({ reasoningLeftOut: [] }))).toEqual([]);
  });

  it('says the new protocol starts without the earlier reasoning state', () => {
    render(<ReasoningNote message={message({ reasoningLeftOut: ['messages'] })} />);
    expect(screen.getByTestId('reasoning-note')).toHaveTextContent(
      'Responses starts without the reasoning state of the earlier Anthropic Messages answers: thinking signatures and encrypted reasoning only work with the protocol that made them. Their reasoning is still shown above.',
    );
    expect(
      reasoningNotes(english, message({ protocol: 'chat', reasoningLeftOut: ['messages', 'responses'] }))[0],
    ).toMatch(
      /^Chat Completions starts without the reasoning state of the earlier Anthropic Messages and Responses answers/,
    );
  });

  it('says when thinking was paused for a tool loop begun without it', () => {
    render(<ReasoningNote message={message({ protocol: 'messages', thinkingPaused: true })} />);
    expect(screen.getByTestId('reasoning-note')).toHaveTextContent(/^Sent without thinking/);
  });
});

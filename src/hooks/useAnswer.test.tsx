import { renderHook } from '@testing-library/react';
import { act, useDeferredValue } from 'react';
import { describe, expect, it } from 'vitest';
import type { Turn } from '../core/index.ts';
import type { AnswerSnapshot } from '../state/stores/answers.ts';
import { answerInFlight, answerMessage } from '../testing/builders.ts';
import { createTestApp } from '../testing/testApp.tsx';
import { useAnswer } from './useAnswer.ts';

const started = answerInFlight('c1', answerMessage('m1', {}));
const progressed = (turn: Partial<Turn>): AnswerSnapshot => answerInFlight('c1', answerMessage('m1', turn));

/**
 * Each render's answer, and whether that render was urgent: an urgent render of a new value gives the
 * previous one from `useDeferredValue`; a transition's render gives the new one.
 */
function renders(app: ReturnType<typeof createTestApp>, id = 'm1') {
  const seen: { text: string | undefined; urgent: boolean }[] = [];
  const hook = renderHook(
    ({ messageId }) => {
      const answer = useAnswer(messageId);
      const deferred = useDeferredValue(answer);
      seen.push({ text: answer?.attempt.turn.text, urgent: deferred !== answer });
      return answer;
    },
    { wrapper: app.wrapper, initialProps: { messageId: id } },
  );
  return { seen, hook };
}

describe('useAnswer', () => {
  it('renders more text of the same attempt as a transition', () => {
    const app = createTestApp();
    const { seen, hook } = renders(app);
    const answers = app.stores.answers.getState();
    act(() => answers.publish(started));
    act(() => answers.publish(progressed({ text: 'Hel' })));
    seen.length = 0;
    act(() => answers.publish(progressed({ text: 'Hello' })));
    expect(seen.filter((r) => r.text === 'Hello').every((r) => !r.urgent)).toBe(true);
    expect(hook.result.current?.attempt.turn.text).toBe('Hello');
  });

  it('renders the first text urgently', () => {
    const app = createTestApp();
    const { seen } = renders(app);
    act(() => app.stores.answers.getState().publish(started));
    act(() => app.stores.answers.getState().publish(progressed({ text: 'Hel' })));
    expect(seen.some((r) => r.text === 'Hel' && r.urgent)).toBe(true);
  });

  it('shows the end at once', () => {
    const app = createTestApp();
    const { seen, hook } = renders(app);
    act(() => app.stores.answers.getState().publish(progressed({ text: 'Hel' })));
    seen.length = 0;
    act(() => app.stores.answers.getState().remove('m1'));
    expect(seen.some((r) => r.text === undefined && r.urgent)).toBe(true);
    expect(hook.result.current).toBeUndefined();
  });

  it('follows another message id at once', () => {
    const app = createTestApp();
    act(() => app.stores.answers.getState().publish(progressed({ text: 'Hel' })));
    const { hook } = renders(app, 'other');
    expect(hook.result.current).toBeUndefined();
    hook.rerender({ messageId: 'm1' });
    expect(hook.result.current?.attempt.turn.text).toBe('Hel');
  });
});

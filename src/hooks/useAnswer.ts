import { startTransition, useEffect, useState } from 'react';
import { type AnswerSnapshot, onlyProgressed } from '../state/stores/answers.ts';
import { useServices } from './appContext.tsx';

/**
 * One answer in flight, by its message id: the component re-renders with each of its snapshots only.
 * A snapshot that only carries the answer further is rendered as a transition (`onlyProgressed`): React
 * renders it in slices, a frame's parse is never one long task, and a later snapshot waits for it rather
 * than start it over. Its appearing, first text, status and end show at once.
 */
export function useAnswer(messageId: string): AnswerSnapshot | undefined {
  const store = useServices().stores.answers;
  const read = () => ({ store, messageId, answer: store.getState().answers[messageId] });
  const [shown, setShown] = useState(read);
  let current = shown;
  if (shown.store !== store || shown.messageId !== messageId) {
    current = read();
    setShown(current);
  }
  useEffect(() => {
    let last: AnswerSnapshot | undefined;
    const show = (first: boolean) => {
      const answer = store.getState().answers[messageId];
      if (!first && answer === last) return;
      const update = () =>
        setShown((was) =>
          was.store === store && was.messageId === messageId && was.answer === answer
            ? was
            : { store, messageId, answer },
        );
      if (!first && onlyProgressed(last, answer)) startTransition(update);
      else update();
      last = answer;
    };
    show(true);
    return store.subscribe(() => show(false));
  }, [store, messageId]);
  return current.answer;
}

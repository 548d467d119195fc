import type { ChatMessage } from '../../state/domain/types.ts';

/**
 * What a conversation renders when it opens, by place in its shown messages. Only what the view can show
 * goes into the first render (a long conversation's reload is otherwise one long task): the messages
 * before `mountFrom` are added over the next tasks, and answers outside `from`–`to` render their markdown
 * once they come near the view (renderQueue.ts), their text shown as written until then.
 */
export interface OpeningWindow {
  mountFrom: number;
  from: number;
  to: number;
}

export interface Viewport {
  width: number;
  height: number;
}

/** The messages' column at its widest (`.messages` in conversation.css). */
const COLUMN_PX = 860;
/**
 * Heights are estimated short, so that the messages counted always fill the view: an answer's header,
 * footer and padding at their least, text at more characters to a line and fewer pixels a line than it
 * ever shows (a table, code or a short line only make it taller).
 */
const ANSWER_FRAME_PX = 80;
const USER_FRAME_PX = 40;
const CHARACTER_PX = 7;
const LINE_PX = 24;

/** Around a saved place: this many messages before it and after it render their markdown at once. */
const AROUND_BEFORE = 2;
const AROUND_AFTER = 4;

/** At least how tall `message` shows in a column `width` wide. */
function leastHeight(message: ChatMessage, width: number): number {
  const perLine = Math.min(width, COLUMN_PX) / CHARACTER_PX;
  const lines = (text: string) => Math.ceil(text.length / perLine) * LINE_PX;
  switch (message.role) {
    case 'user':
      return USER_FRAME_PX + lines(message.text);
    case 'assistant':
      return ANSWER_FRAME_PX + lines(message.attempts.at(-1)?.turn.text ?? '');
    case 'tool':
      return 0; // shown with its call, inside the answer
  }
}

/**
 * Opening at the end: the last messages that fill the view, rendered at once; the ones above them follow
 * in the next tasks, the nearest first (their markdown as they come near).
 */
export function openingAtEnd(messages: readonly ChatMessage[], viewport: Viewport): OpeningWindow {
  let height = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    height += leastHeight(messages[i]!, viewport.width);
    if (height >= viewport.height) return { mountFrom: i, from: i, to: messages.length };
  }
  return { mountFrom: 0, from: 0, to: messages.length };
}

/**
 * Opening where the person left it (message `at`): every message at once, for the place to be found
 * again, and markdown around it.
 */
export function openingAt(at: number): OpeningWindow {
  return { mountFrom: 0, from: at - AROUND_BEFORE, to: at + AROUND_AFTER };
}

/** How many more messages each later task adds above the first ones. */
const MOUNT_STEP = 25;

/** Where the messages rendered start after one more task. */
export function mountedAfterStep(mountFrom: number): number {
  return Math.max(0, mountFrom - MOUNT_STEP);
}

import { openingAtEnd, type Viewport } from '../components/conversation/openingWindow.ts';
import { prepareAnswer } from '../markdown/prepare.ts';
import type { MarkdownProcessor } from '../markdown/processor.ts';
import { shownBranch } from '../state/domain/branches.ts';
import type { Conversation } from '../state/domain/types.ts';
import { currentAttempt } from '../state/stores/conversationStore.ts';

/** How long one task of parsing runs before it lets the page do anything else. */
const SLICE_MS = 8;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The answers a conversation's first screen shows (it opens at its end, `openingAtEnd`), parsed before
 * that screen renders, in tasks of a few milliseconds: the render takes their trees (`processor.prepare`)
 * instead of parsing them itself, which made a reload on a long answer one long task.
 */
export async function prepareFirstScreen(
  conversation: Conversation,
  processor: MarkdownProcessor,
  viewport: Viewport,
): Promise<void> {
  const messages = shownBranch(conversation);
  const { from } = openingAtEnd(messages, viewport);
  let sliceStart = performance.now();
  for (const message of messages.slice(from)) {
    if (message.role !== 'assistant') continue;
    const turn = currentAttempt(message)?.turn;
    if (!turn || turn.status === 'streaming') continue;
    try {
      for (const _block of prepareAnswer(turn.text, processor)) {
        if (performance.now() - sliceStart < SLICE_MS) continue;
        await nextTask();
        sliceStart = performance.now();
      }
    } catch (error) {
      // Not the app's start that fails: the render parses this answer again, and shows what fails in place.
      console.warn('Could not parse an answer ahead of its render', error);
    }
  }
}

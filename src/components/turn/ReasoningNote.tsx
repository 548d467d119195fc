import { adapters, type Protocol } from '../../core/index.ts';
import type { AssistantMessage } from '../../state/types.ts';
import './reasoningNote.css';

const list = (protocols: readonly Protocol[]) => protocols.map((p) => adapters[p].label).join(' and ');

/** What an answer's request had to do differently about reasoning, in a sentence each; none most of the time. */
export function reasoningNotes(message: AssistantMessage): string[] {
  const notes: string[] = [];
  const left = message.reasoningLeftOut ?? [];
  if (left.length > 0)
    notes.push(
      `${adapters[message.protocol].label} starts without the reasoning state of the earlier ${list(left)} answers: thinking signatures and encrypted reasoning only work with the protocol that made them. Their reasoning is still shown above.`,
    );
  if (message.thinkingPaused)
    notes.push(
      'Sent without thinking: this answer continues tool calls made without it, and Anthropic Messages thinks through a whole turn or not at all. The next message thinks again.',
    );
  return notes;
}

/** A short note under an answer's header, when its request left reasoning state out or paused thinking. */
export function ReasoningNote({ message }: { message: AssistantMessage }) {
  const notes = reasoningNotes(message);
  if (notes.length === 0) return null;
  return (
    <div className="reasoning-note" data-testid="reasoning-note">
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </div>
  );
}

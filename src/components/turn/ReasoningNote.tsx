import { adapters } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { AssistantMessage } from '../../state/domain/types.ts';
import './reasoningNote.css';

/** What an answer's request had to do differently about reasoning, in a sentence each; none most of the time. */
export function reasoningNotes({ t, format }: I18n, message: AssistantMessage): string[] {
  const notes: string[] = [];
  const left = message.reasoningLeftOut ?? [];
  if (left.length > 0)
    notes.push(
      t('reasoning.note.leftOut', {
        protocol: adapters[message.protocol].label,
        earlier: format.list(left.map((p) => adapters[p].label)),
      }),
    );
  if (message.thinkingPaused) notes.push(t('reasoning.note.paused'));
  return notes;
}

/** A short note under an answer's header, when its request left reasoning state out or paused thinking. */
export function ReasoningNote({ message }: { message: AssistantMessage }) {
  const notes = reasoningNotes(useI18n(), message);
  if (notes.length === 0) return null;
  return (
    <div className="reasoning-note" data-testid="reasoning-note">
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </div>
  );
}

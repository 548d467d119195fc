import { type SyntheticEvent, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { LazyMarkdown } from '../markdown/LazyMarkdown.tsx';
import './turn.css';

/**
 * The model's reasoning, collapsible. Open while it streams so the person sees progress, collapsed once
 * the turn is done — unless the person toggled it themselves, in which case their choice sticks.
 */
export function ReasoningSection({ text, streaming }: { text: string; streaming: boolean }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? streaming;
  const { t } = useI18n();

  // `toggle` also fires after React changes `open` itself; only a change we did not make is a choice.
  const onToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const nowOpen = event.currentTarget.open;
    if (nowOpen !== open) setChosen(nowOpen);
  };

  if (text === '' && !streaming) return null;
  return (
    <details className="reasoning" open={open} onToggle={onToggle}>
      <summary className="reasoning-summary">
        {t(streaming ? 'reasoning.thinking' : 'reasoning.section')}
      </summary>
      <div className="reasoning-body">
        {/* Reasoning summaries are markdown (bold headings, lists); same safe renderer as answers. */}
        <LazyMarkdown text={text} streaming={streaming} />
      </div>
    </details>
  );
}

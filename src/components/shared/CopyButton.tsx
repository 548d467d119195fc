import { useEffect, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './copyButton.css';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A button that copies `text` and says for a moment whether that worked ("Copied" / "Copy failed"). The
 * label is its accessible name, and a polite live region, so a screen reader announces the outcome.
 */
export function CopyButton({ text, label, className }: { text: string; label: string; className: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const { t } = useI18n();

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      // `navigator.clipboard` is missing outside secure contexts: that lands in `catch` too.
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button
      type="button"
      className={`copy-button ${className}`}
      data-state={state}
      onClick={copy}
      aria-live="polite"
    >
      {state === 'idle' ? label : t(state === 'copied' ? 'copy.copied' : 'copy.failed')}
    </button>
  );
}

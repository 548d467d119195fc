import { type FormEvent, useId, useState } from 'react';
import type { ToolCall } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './turn.css';

type ArgumentsView =
  | { kind: 'json'; text: string }
  | { kind: 'partial'; text: string }
  | { kind: 'invalid'; text: string };

/** How to show the arguments: pretty JSON once they parse, the raw text until (or unless) they do. */
function viewArguments(raw: string, streaming: boolean): ArgumentsView {
  // No arguments at all means `{}` (as `parseToolArguments` in core reads it), once the call is complete.
  if (raw.trim() === '' && !streaming) return { kind: 'json', text: '{}' };
  try {
    return { kind: 'json', text: JSON.stringify(JSON.parse(raw), null, 2) };
  } catch {
    return { kind: streaming ? 'partial' : 'invalid', text: raw };
  }
}

function ResultForm({ name, onSubmit }: { name: string; onSubmit: (content: string) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const { t } = useI18n();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== '') onSubmit(text);
  };
  return (
    <form className="tool-result-form" onSubmit={submit}>
      <label htmlFor={id} className="tool-label">
        {t('tool.resultFor', { name })}
      </label>
      <textarea
        id={id}
        className="tool-result-input"
        rows={3}
        spellCheck={false}
        placeholder='{"temperature": 21}'
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <button type="submit" className="tool-send" disabled={text.trim() === ''}>
        {t('tool.send')}
      </button>
    </form>
  );
}

/** One tool call: its name, id and arguments as they stream, then the result (sent, or a form to send it). */
export function ToolCallCard({
  call,
  streaming,
  result,
  onSubmitResult,
}: {
  call: ToolCall;
  streaming: boolean;
  result?: string;
  onSubmitResult?: (content: string) => void;
}) {
  const args = viewArguments(call.arguments, streaming);
  const { t } = useI18n();
  return (
    <section
      className="tool-card"
      aria-label={t('tool.region', { name: call.name })}
      aria-busy={streaming || undefined}
    >
      <header className="tool-header">
        <span className="tool-name">{call.name}</span>
        <code className="tool-id" title={t('tool.callId')}>
          {call.id}
        </code>
      </header>
      {/* Scrolls past 20 lines: focusable, so it can be scrolled from the keyboard too (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre className="tool-args" data-kind={args.kind} tabIndex={0}>
        {args.text}
        {args.kind === 'partial' && <span className="tool-receiving"> {t('tool.receiving')}</span>}
      </pre>
      {args.kind === 'invalid' && <p className="tool-warning">{t('tool.invalidJson')}</p>}
      {result !== undefined ? (
        <div className="tool-result">
          <p className="tool-label">{t('tool.resultSent')}</p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
          <pre className="tool-result-text" tabIndex={0}>
            {result}
          </pre>
        </div>
      ) : (
        onSubmitResult && !streaming && <ResultForm name={call.name} onSubmit={onSubmitResult} />
      )}
    </section>
  );
}

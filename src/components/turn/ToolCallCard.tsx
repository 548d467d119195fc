import { type FormEvent, useId, useState } from 'react';
import type { ToolCall } from '../../core/index.ts';
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== '') onSubmit(text);
  };
  return (
    <form className="tool-result-form" onSubmit={submit}>
      <label htmlFor={id} className="tool-label">
        Result for {name}
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
        Send result
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
  return (
    <section className="tool-card" aria-label={`Tool call ${call.name}`} aria-busy={streaming || undefined}>
      <header className="tool-header">
        <span className="tool-name">{call.name}</span>
        <code className="tool-id" title="Call id">
          {call.id}
        </code>
      </header>
      {/* Scrolls past 20 lines: focusable, so it can be scrolled from the keyboard too (WCAG 2.1.1). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre className="tool-args" data-kind={args.kind} tabIndex={0}>
        {args.text}
        {args.kind === 'partial' && <span className="tool-receiving"> receiving…</span>}
      </pre>
      {args.kind === 'invalid' && (
        <p className="tool-warning">Arguments are not valid JSON (the answer may have been cut off)</p>
      )}
      {result !== undefined ? (
        <div className="tool-result">
          <p className="tool-label">Result sent</p>
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

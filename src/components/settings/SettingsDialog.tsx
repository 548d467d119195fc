import { useEffect, useId, useRef, useState } from 'react';
import { type Settings, useSettingsStore } from '../../state/settingsStore.ts';
import './settings.css';

function numberOrNull(value: string): number | null {
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * A required number of seconds (at least 1). The text is kept while it is being edited, so the field
 * can be emptied and retyped; only valid values reach the store, and leaving the field shows the stored one.
 */
function SecondsField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange(n: number): void;
}) {
  const [text, setText] = useState(String(value));
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type="number"
        min={1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = numberOrNull(e.target.value);
          if (n !== null && n >= 1) onChange(n);
        }}
        onBlur={() => setText(String(value))}
      />
    </label>
  );
}

/** Every setting applies at once; nothing here needs saving. */
export function SettingsDialog({ onClose }: { onClose(): void }) {
  const settings = useSettingsStore((s) => s.settings);
  const update = useSettingsStore((s) => s.update);
  const titleId = useId();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const set = (patch: Partial<Settings>) => update(patch);

  return (
    // Clicking outside closes too; Escape and the Close button are the keyboard ways out.
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop, not a control
    <div className="overlay" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-labelledby={titleId} className="dialog settings">
        <header className="dialog-header">
          <h2 id={titleId}>Settings</h2>
          <button type="button" className="btn btn-small" onClick={onClose}>
            Close
          </button>
        </header>

        <fieldset>
          <legend>Gateway</legend>
          <label className="field">
            <span>Gateway base URL (empty: this server's /v1 — the simulator or the dev proxy)</span>
            <input
              ref={first}
              type="url"
              placeholder="https://gateway.example.com/v1"
              value={settings.baseUrl}
              onChange={(e) => set({ baseUrl: e.target.value })}
            />
          </label>
          <label className="field">
            <span>API key</span>
            <input
              type="password"
              autoComplete="off"
              value={settings.apiKey}
              onChange={(e) => set({ apiKey: e.target.value })}
            />
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={settings.rememberKey}
              onChange={(e) => set({ rememberKey: e.target.checked })}
            />
            Remember the API key in this browser (otherwise it is kept for this tab only)
          </label>
        </fieldset>

        <fieldset>
          <legend>Model</legend>
          <label className="field">
            <span>System prompt</span>
            <textarea
              rows={3}
              value={settings.systemPrompt}
              onChange={(e) => set({ systemPrompt: e.target.value })}
            />
          </label>
          <div className="row">
            <label className="field">
              <span>Max output tokens</span>
              <input
                type="number"
                min={1}
                placeholder="model default"
                value={settings.maxOutputTokens ?? ''}
                onChange={(e) => set({ maxOutputTokens: numberOrNull(e.target.value) })}
              />
            </label>
            <label className="field">
              <span>Temperature</span>
              <input
                type="number"
                min={0}
                max={2}
                step={0.1}
                placeholder="model default"
                value={settings.temperature ?? ''}
                onChange={(e) => set({ temperature: numberOrNull(e.target.value) })}
              />
            </label>
          </div>
          <label className="check">
            <input
              type="checkbox"
              checked={settings.offerTools}
              onChange={(e) => set({ offerTools: e.target.checked })}
            />
            Offer the demo tool (get_weather) to the model
          </label>
        </fieldset>

        <fieldset>
          <legend>Stalls and retries</legend>
          <div className="row">
            <SecondsField
              label="Stall warning after (seconds without output)"
              value={settings.stallSilentSeconds}
              onChange={(stallSilentSeconds) => set({ stallSilentSeconds })}
            />
            <SecondsField
              label="Dead connection after (seconds without any byte)"
              value={settings.stallDeadSeconds}
              onChange={(stallDeadSeconds) => set({ stallDeadSeconds })}
            />
          </div>
          <label className="check">
            <input
              type="checkbox"
              checked={settings.autoRetry}
              onChange={(e) => set({ autoRetry: e.target.checked })}
            />
            Retry automatically when a request fails before any output (429, 5xx)
          </label>
        </fieldset>
      </div>
    </div>
  );
}

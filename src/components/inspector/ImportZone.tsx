import { useId, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { ReplaySpeed } from '../../session/replay.ts';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A recorded `.sse` (or JSON trace) comes in by file picker or drag-and-drop, and replays as a turn.
 * `onImport` rejects when the file is not a recording: the reason is shown here.
 */
export function ImportZone({
  onImport,
}: {
  onImport(name: string, text: string, speed: ReplaySpeed): Promise<void>;
}) {
  const [speed, setSpeed] = useState<ReplaySpeed>('recorded');
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const { t } = useI18n();

  const read = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      setError(t('import.readError', { name: file.name, error: errorText(e) }));
      return;
    }
    try {
      await onImport(file.name, text, speed);
    } catch (e) {
      setError(t('import.replayError', { name: file.name, error: errorText(e) }));
    }
  };

  return (
    <section
      className={`import-zone${dragging ? ' dragging' : ''}`}
      aria-label={t('import.label')}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        void read(e.dataTransfer.files[0]);
      }}
    >
      <label htmlFor={inputId} className="import-label">
        {t('import.file')}
      </label>
      <input
        id={inputId}
        type="file"
        accept=".sse,.txt,.json,text/event-stream,application/json"
        onChange={(e) => {
          void read(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <p className="import-hint">{t('import.hint')}</p>
      <fieldset className="speed">
        <legend>{t('import.speed')}</legend>
        <label>
          <input
            type="radio"
            name={`${inputId}-speed`}
            checked={speed === 'recorded'}
            onChange={() => setSpeed('recorded')}
          />{' '}
          {t('import.speed.recorded')}
        </label>
        <label>
          <input
            type="radio"
            name={`${inputId}-speed`}
            checked={speed === 'instant'}
            onChange={() => setSpeed('instant')}
          />{' '}
          {t('import.speed.instant')}
        </label>
      </fieldset>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

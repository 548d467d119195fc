import { useId, useState } from 'react';
import type { ReplaySpeed } from '../../session/replay.ts';

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

  const read = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      setError(`Could not read ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    try {
      await onImport(file.name, text, speed);
    } catch (e) {
      setError(`Could not replay ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <section
      className={`import-zone${dragging ? ' dragging' : ''}`}
      aria-label="Import a recording"
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
        Import .sse
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
      <p className="import-hint">or drop a file here: it replays through the same reader as a new answer.</p>
      <fieldset className="speed">
        <legend>Replay speed</legend>
        <label>
          <input
            type="radio"
            name={`${inputId}-speed`}
            checked={speed === 'recorded'}
            onChange={() => setSpeed('recorded')}
          />{' '}
          Recorded speed
        </label>
        <label>
          <input
            type="radio"
            name={`${inputId}-speed`}
            checked={speed === 'instant'}
            onChange={() => setSpeed('instant')}
          />{' '}
          Instantly
        </label>
      </fieldset>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { BackupProblem } from '../../state/formats/backup.ts';
import { setAsidePrefix } from '../../state/formats/records.ts';
import { downloadText } from '../shared/download.ts';
import { backupSummary, entryName, refusalText, restoreSummary } from './backupWords.ts';
import './backup.css';

type Status =
  | { kind: 'idle' }
  | { kind: 'busy'; message: string }
  | { kind: 'done'; message: string; problems: BackupProblem[] }
  | { kind: 'failed'; message: string };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Back up everything this browser keeps to one file, and restore such a file here or in another browser
 * (`src/state/formats/backup.ts`), through the app's storage.
 */
export function BackupSection() {
  const { stores, storage } = useServices();
  const apiKey = useSettings((s) => s.settings.apiKey);
  const i18n = useI18n();
  const { t } = i18n;
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const picker = useRef<HTMLInputElement>(null);
  const output = useRef<HTMLDivElement>(null);
  const busy = status.kind === 'busy';
  // What happened shows below the buttons, at the dialog's end: brought into view when it changes.
  useEffect(() => {
    if (status.kind !== 'idle') output.current?.scrollIntoView?.({ block: 'nearest' });
  }, [status]);

  async function backUpNow() {
    if (busy) return;
    setStatus({ kind: 'busy', message: t('backup.busy.backUp') });
    try {
      const file = await storage.backUp(apiKey);
      downloadText(file.name, file.text, 'application/json');
      setStatus({ kind: 'done', message: backupSummary(i18n, file), problems: [] });
    } catch (error) {
      setStatus({ kind: 'failed', message: t('backup.failed.backUp', { error: errorText(error) }) });
    }
  }

  async function restore(file: File | undefined) {
    if (!file || busy) return;
    setStatus({ kind: 'busy', message: t('backup.busy.restore', { name: file.name }) });
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: t('backup.failed.read', { name: file.name, error: errorText(error) }),
      });
      return;
    }
    try {
      const result = await storage.restore(text);
      if (!result.ok) {
        setStatus({ kind: 'failed', message: refusalText(i18n, result.refusal) });
        return;
      }
      const { setAside } = result.outcome;
      if (setAside.length) {
        // Unreadable records a restored one replaced: listed under their set-aside copies now.
        const replaced = new Set(
          setAside.map((r) => r.key.slice(setAsidePrefix.length, r.key.lastIndexOf(':'))),
        );
        stores.storage.getState().replaceUnreadable(replaced, setAside);
      }
      setStatus({
        kind: 'done',
        message: restoreSummary(i18n, result.counts, result.outcome, result.files),
        problems: result.problems,
      });
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: t('backup.failed.restore', { error: errorText(error) }),
      });
    }
  }

  return (
    <fieldset className="backup">
      <legend>{t('backup.legend')}</legend>
      <p>{t('backup.about')}</p>
      {/* Opened by the Restore button; out of the tab order, labelled for assistive technology. */}
      <input
        ref={picker}
        type="file"
        accept=".json,application/json"
        className="visually-hidden"
        tabIndex={-1}
        aria-label={t('backup.file')}
        onChange={(e) => {
          void restore(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <div className="backup-actions">
        <button type="button" className="btn btn-small" aria-disabled={busy} onClick={() => void backUpNow()}>
          {t('backup.backUp')}
        </button>
        <button
          type="button"
          className="btn btn-small"
          aria-disabled={busy}
          onClick={() => !busy && picker.current?.click()}
        >
          {t('backup.restore')}
        </button>
      </div>
      <div ref={output} className="backup-output">
        <p role="status">{status.kind === 'busy' || status.kind === 'done' ? status.message : ''}</p>
        {status.kind === 'done' && status.problems.length ? (
          <ul className="backup-problems" aria-label={t('backup.problems')}>
            {status.problems.map((problem, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, shown once
              <li key={i}>
                {t('backup.problem', { entry: entryName(i18n, problem.entry), reason: problem.reason })}
              </li>
            ))}
          </ul>
        ) : null}
        {status.kind === 'failed' ? (
          <p role="alert" className="field-error">
            {status.message}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

import { useEffect, useId, useRef, useState } from 'react';
import { useServices } from '../../hooks/appContext.tsx';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { BackupProblem } from '../../state/formats/backup.ts';
import { setAsidePrefix } from '../../state/formats/records.ts';
import { sameGateway } from '../../state/stores/settingsStore.ts';
import { downloadText } from '../shared/download.ts';
import { backupSummary, entryName, refusalText, restoreSummary } from './backupWords.ts';
import './backup.css';

type Status =
  | { kind: 'idle' }
  | { kind: 'busy'; message: string }
  | {
      kind: 'done';
      message: string;
      problems: BackupProblem[];
      /** The backup's gateway address, not applied: asked about until the person answers. */
      gateway: string | null;
    }
  | { kind: 'failed'; message: string };

/** A gateway address as a person reads it: empty is this app's own server. */
function gatewayName({ t }: Pick<I18n, 't'>, address: string): string {
  return address.trim() === '' ? t('backup.gateway.ownServer') : address;
}

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
  const baseUrl = useSettings((s) => s.settings.baseUrl);
  const i18n = useI18n();
  const { t } = i18n;
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const picker = useRef<HTMLInputElement>(null);
  const output = useRef<HTMLDivElement>(null);
  const busy = status.kind === 'busy';
  const keep = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  const offered =
    status.kind === 'done' && status.gateway !== null && !sameGateway(status.gateway, baseUrl)
      ? status.gateway
      : null;
  // What happened shows below the buttons, at the dialog's end: brought into view when it changes.
  useEffect(() => {
    if (status.kind !== 'idle') output.current?.scrollIntoView?.({ block: 'nearest' });
  }, [status]);

  // A question that decides where the key goes: the safe answer (keep) has the focus.
  useEffect(() => {
    if (offered !== null) keep.current?.focus();
  }, [offered]);

  /**
   * The backup's gateway, applied only now the person said so in words that name it: until then the key
   * (and a model list request) never went there.
   */
  function answerGateway(use: boolean) {
    if (status.kind !== 'done' || offered === null) return;
    const current = gatewayName(i18n, baseUrl);
    const address = gatewayName(i18n, offered);
    if (use) stores.settings.getState().update({ baseUrl: offered });
    const answer = use ? t('backup.gateway.used', { address }) : t('backup.gateway.kept', { current });
    setStatus({ ...status, message: `${status.message} ${answer}`, gateway: null });
  }

  async function backUpNow() {
    if (busy) return;
    setStatus({ kind: 'busy', message: t('backup.busy.backUp') });
    try {
      const file = await storage.backUp(apiKey);
      downloadText(file.name, file.text, 'application/json');
      setStatus({ kind: 'done', message: backupSummary(i18n, file), problems: [], gateway: null });
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
        gateway: result.outcome.gateway,
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
        {offered !== null ? (
          <fieldset className="backup-gateway" aria-describedby={questionId}>
            <legend>{t('backup.gateway.legend')}</legend>
            <p id={questionId}>
              {t('backup.gateway.question', {
                address: gatewayName(i18n, offered),
                current: gatewayName(i18n, baseUrl),
              })}
            </p>
            <div className="backup-actions">
              <button ref={keep} type="button" className="btn btn-small" onClick={() => answerGateway(false)}>
                {t('backup.gateway.keep', { current: gatewayName(i18n, baseUrl) })}
              </button>
              <button type="button" className="btn btn-small" onClick={() => answerGateway(true)}>
                {t('backup.gateway.use', { address: gatewayName(i18n, offered) })}
              </button>
            </div>
          </fieldset>
        ) : null}
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

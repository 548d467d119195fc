import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  adapters,
  apiKeyVariable,
  type CodeLanguage,
  codeLanguages,
  codeSnippet,
  type Protocol,
} from '../../core/index.ts';
import { useServices } from '../../hooks/appContext.tsx';
import { useBodyLoads, useSettings } from '../../hooks/useStores.ts';
import type { MessageKey } from '../../i18n/catalogs/en.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { codeRequest } from '../../session/gateway.ts';
import type { Attempt } from '../../state/domain/types.ts';
import { CopyButton } from '../shared/CopyButton.tsx';
import { ModalDialog } from '../shared/ModalDialog.tsx';
import { shownCode, tabAfter } from './tabKeys.ts';
import './viewCode.css';

/** The body as sent, attachments in: being put together, ready, or not to be had (a file gone). */
type SentBody =
  | { kind: 'preparing' }
  | { kind: 'ready'; body: Record<string, unknown> }
  | { kind: 'file-missing' };

const help: Record<CodeLanguage, MessageKey> = {
  curl: 'code.help.curl',
  python: 'code.help.python',
  typescript: 'code.help.typescript',
  http: 'code.help.http',
};

/** Why a body is not there to show: the inspector's words for the same thing. */
const bodyNotes = {
  loading: 'inspector.body.loading',
  failed: 'inspector.body.failed',
  missing: 'inspector.body.missing',
  unreadable: 'inspector.body.unreadable',
} as const satisfies Record<string, MessageKey>;

/** The body of `attempt`'s request as it went out (each attachment's bytes in place of its placeholder). */
function useSentBody(attempt: Attempt): SentBody {
  const { session } = useServices();
  const { request } = attempt;
  const [body, setBody] = useState<SentBody>({ kind: 'preparing' });
  useEffect(() => {
    if (request.bodyMissing) return;
    let live = true;
    session.bodyAsSent(request).then(
      (json) => live && setBody({ kind: 'ready', body: JSON.parse(json) as Record<string, unknown> }),
      () => live && setBody({ kind: 'file-missing' }),
    );
    return () => {
      live = false;
    };
  }, [request, session]);
  return body;
}

/** Why there is no body to show, or null when there is one. */
function useBodyNote(attempt: Attempt): MessageKey | null {
  const { stores } = useServices();
  const missing = attempt.request.bodyMissing;
  const load = useBodyLoads((s) => s.loads[attempt.id]);
  // Not in this browser (team mode: sent from another device): asked for, from the server if need be.
  useEffect(() => {
    if (missing === 'missing') stores.bodies.getState().want(attempt.id);
  }, [missing, attempt.id, stores.bodies]);
  if (!missing) return null;
  if (missing === 'missing' && (load === undefined || load === 'loading')) return bodyNotes.loading;
  return bodyNotes[load === 'failed' || load === 'unreadable' ? load : missing];
}

/**
 * One attempt's request as code: cURL, Python and TypeScript with the official SDKs, and raw HTTP, each
 * with its Copy button. The key is read from `$HOPBASE_API_KEY`, never written in.
 */
export function ViewCodeDialog({
  protocol,
  attempt,
  onClose,
}: {
  protocol: Protocol;
  attempt: Attempt;
  onClose(): void;
}) {
  const { t, format } = useI18n();
  const baseUrl = useSettings((s) => s.settings.baseUrl);
  const [chosen, setChosen] = useState<CodeLanguage>('curl');
  const titleId = useId();
  const ids = useId();
  const tabs = useRef<Partial<Record<CodeLanguage, HTMLButtonElement | null>>>({});
  const sent = useSentBody(attempt);
  const note = useBodyNote(attempt);
  const adapter = adapters[protocol];
  const { request } = attempt;
  const target = useMemo(
    () => codeRequest(protocol, request, { baseUrl }, window.location.origin),
    [protocol, request, baseUrl],
  );
  // Memoized: an answer streaming beside it re-renders the dialog at every frame, and a body can be megabytes.
  const code = useMemo(
    () =>
      target && sent.kind === 'ready' && !note
        ? codeSnippet(chosen, adapter, { ...target, body: sent.body })
        : null,
    [chosen, adapter, sent, note, target],
  );
  useEffect(() => tabs.current.curl?.focus(), []);

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const next = tabAfter(codeLanguages.indexOf(chosen), event.key, codeLanguages.length);
    if (next === null) return;
    event.preventDefault();
    const language = codeLanguages[next] ?? 'curl';
    setChosen(language);
    tabs.current[language]?.focus();
  };

  const shown = code === null ? null : shownCode(code);
  return (
    <ModalDialog labelledBy={titleId} className="view-code-dialog" onClose={onClose} closeOnBackdrop>
      <div className="dialog-header">
        <h2 id={titleId}>{t('code.title')}</h2>
        <button type="button" className="btn btn-small" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
      {target ? (
        <p className="view-code-target">
          {t('code.subtitle', { protocol: adapter.label, url: target.base + target.path })}
        </p>
      ) : null}
      <div role="tablist" aria-label={t('code.languages')} className="view-code-tabs">
        {codeLanguages.map((language) => (
          <button
            key={language}
            ref={(element) => {
              tabs.current[language] = element;
            }}
            type="button"
            role="tab"
            id={`${ids}-tab-${language}`}
            aria-selected={language === chosen}
            aria-controls={`${ids}-panel`}
            tabIndex={language === chosen ? 0 : -1}
            className="view-code-tab"
            onClick={() => setChosen(language)}
            onKeyDown={onTabKey}
          >
            {t(`code.tab.${language}`)}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${ids}-panel`}
        aria-labelledby={`${ids}-tab-${chosen}`}
        className="view-code-panel"
      >
        {note ? (
          <p role={note === bodyNotes.loading ? 'status' : 'note'}>{t(note)}</p>
        ) : sent.kind === 'file-missing' ? (
          <p role="note">{t('code.attachmentMissing')}</p>
        ) : shown === null || code === null ? (
          <p role="status">{t('code.preparing')}</p>
        ) : (
          <>
            <div className="view-code-bar">
              <p className="view-code-help">
                {t(help[chosen], {
                  // The HTTP tab writes the variable as the shell would read it.
                  variable: chosen === 'http' ? `$${apiKeyVariable}` : apiKeyVariable,
                  package: chosen === 'python' ? adapter.sdk.python : adapter.sdk.npm,
                })}
              </p>
              <CopyButton text={code} label={t('code.copy')} className="btn btn-small" />
            </div>
            {/* Focusable: a keyboard scrolls a long request too. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1) */}
            <pre className="view-code-text" tabIndex={0}>
              <code>{shown.text}</code>
            </pre>
            {shown.shortened ? (
              <p role="note" className="view-code-help">
                {t('code.shortened', { size: format.bytes(new TextEncoder().encode(code).length) })}
              </p>
            ) : null}
          </>
        )}
        {target && baseUrl.trim() === '' ? <p className="view-code-help">{t('code.sameOrigin')}</p> : null}
      </div>
    </ModalDialog>
  );
}

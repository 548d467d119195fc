import { lazy, useState } from 'react';
import { createPortal } from 'react-dom';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { resendable } from '../../session/gateway.ts';
import type { AssistantMessage, Attempt } from '../../state/domain/types.ts';
import { LoadBoundary } from '../shared/LoadBoundary.tsx';

/** The dialog is fetched the first time it opens: the first screen needs only the button. */
const ViewCodeDialog = lazy(() =>
  import('./ViewCodeDialog.tsx').then(({ ViewCodeDialog }) => ({ default: ViewCodeDialog })),
);

/**
 * "View code" for one sent attempt of `message`: its request as cURL, Python, TypeScript and raw HTTP.
 * `n`: the attempt's number, when the button stands beside others (an answer's earlier attempts).
 */
export function ViewCodeButton({
  message,
  attempt,
  n,
}: {
  message: AssistantMessage;
  attempt: Attempt;
  n?: number;
}) {
  // The attempt it opened for, followed as it changes (its body read back), never another one.
  const [openFor, setOpenFor] = useState<string | null>(null);
  const { t } = useI18n();
  // Only what the app sent to a gateway (a replayed recording sent nothing).
  if (!resendable(message.protocol, attempt.request)) return null;
  const close = () => setOpenFor(null);
  const shown = message.attempts.find((a) => a.id === openFor);
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        aria-haspopup="dialog"
        aria-label={n === undefined ? undefined : t('code.viewAttempt', { n })}
        onClick={() => setOpenFor(attempt.id)}
      >
        {t('code.view')}
      </button>
      {shown
        ? // On the page's body: an answer's box contains its paint (content-visibility), which would clip it.
          createPortal(
            <LoadBoundary onClose={close}>
              <ViewCodeDialog protocol={message.protocol} attempt={shown} onClose={close} />
            </LoadBoundary>,
            document.body,
          )
        : null}
    </>
  );
}

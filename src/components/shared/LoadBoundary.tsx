import { Component, type ReactNode, Suspense, useEffect, useId, useRef } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { ModalDialog } from './ModalDialog.tsx';

interface LoadBoundaryProps {
  /** Closes the part that could not be shown (the dialog or panel that was opening). */
  onClose(): void;
  children: ReactNode;
}

/**
 * Around a part of the app fetched when first opened (Settings, the inspector, a dialog), waiting for it
 * (`Suspense`, nothing shown meanwhile); if its code cannot
 * be fetched (offline, or a newer version was deployed meanwhile), the person is told and the rest of the
 * app stays as it was, instead of the whole page going blank.
 */
export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('A part of the app could not be loaded', error);
  }

  override render() {
    if (this.state.failed) return <LoadFailed onClose={this.props.onClose} />;
    // Nothing shows while the part is fetched: it opens when it is here.
    return <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}

function LoadFailed({ onClose }: { onClose(): void }) {
  const { t } = useI18n();
  const titleId = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <ModalDialog role="alertdialog" labelledBy={titleId} className="load-failed" onClose={onClose}>
      <p id={titleId}>{t('load.failed')}</p>
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={() => window.location.reload()}>
          {t('action.reload')}
        </button>
        <button ref={close} type="button" className="btn btn-primary" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
    </ModalDialog>
  );
}

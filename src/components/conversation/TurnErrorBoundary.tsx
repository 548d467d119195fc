import { Component, type ReactNode } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';

interface TurnErrorBoundaryProps {
  /** The stored message shown inside: a new one (an update, a retry) gets another chance to render. */
  resetKey: unknown;
  children: ReactNode;
}

function BrokenAnswer() {
  const { t } = useI18n();
  return (
    <article className="turn turn-error turn-broken" aria-label={t('answer.broken.label')}>
      <p role="alert">{t('answer.broken')}</p>
    </article>
  );
}

/**
 * One stored answer that cannot be rendered (a corrupt or foreign record) must not blank the whole app:
 * it shows as a short note in its place, and the rest of the conversation stays usable (React reports
 * the error on the console).
 */
export class TurnErrorBoundary extends Component<TurnErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidUpdate(previous: TurnErrorBoundaryProps) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render() {
    return this.state.failed ? <BrokenAnswer /> : this.props.children;
  }
}

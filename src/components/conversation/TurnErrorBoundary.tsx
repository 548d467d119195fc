import { Component, type ReactNode } from 'react';

interface TurnErrorBoundaryProps {
  /** The stored message shown inside: a new one (an update, a retry) gets another chance to render. */
  resetKey: unknown;
  children: ReactNode;
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
    if (!this.state.failed) return this.props.children;
    return (
      <article className="turn turn-error turn-broken" aria-label="Answer that could not be displayed">
        <p role="alert">This answer could not be displayed.</p>
      </article>
    );
  }
}

import { type KeyboardEvent, useId, useState } from 'react';
import type { CostSum } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { type AttemptCostView, CostBreakdown } from './CostBreakdown.tsx';
import { costFigure } from './costWords.ts';
import './cost.css';

/**
 * What an answer cost, by its usage line: a button with the figure whose breakdown (each attempt's
 * tokens, prices and dollars) opens on hover, focus or a tap, and is its description for screen readers.
 */
export function CostFigure({
  attempts,
  sum,
  model,
}: {
  attempts: readonly AttemptCostView[];
  sum: CostSum;
  model: string;
}) {
  const i18n = useI18n();
  const id = useId();
  // Open on focus, a tap or hover (the pointer may move onto it), until Escape dismisses it.
  const [open, setOpen] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const figure = costFigure(i18n, sum, true);
  if (figure === null) return null;
  const show = () => {
    setOpen(true);
    setDismissed(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // Escape closes the breakdown only, not a dialog around it.
    if (event.key === 'Escape' && !dismissed) {
      event.stopPropagation();
      setOpen(false);
      setDismissed(true);
    }
  };
  const hover = (on: boolean) => () => {
    setHovered(on);
    if (!on) setDismissed(false);
  };
  const visible = (open || hovered) && !dismissed;
  return (
    <span className="cost">
      <button
        type="button"
        className="cost-figure"
        data-testid="turn-cost"
        aria-label={i18n.t('cost.label', { figure })}
        aria-describedby={id}
        onFocus={show}
        onBlur={() => {
          setOpen(false);
          setDismissed(false);
        }}
        onClick={show}
        onMouseEnter={hover(true)}
        onMouseLeave={hover(false)}
        onKeyDown={onKeyDown}
      >
        {figure}
      </button>
      <div
        role="tooltip"
        id={id}
        className="cost-breakdown"
        hidden={!visible}
        onMouseEnter={hover(true)}
        onMouseLeave={hover(false)}
      >
        <CostBreakdown attempts={attempts} model={model} />
      </div>
    </span>
  );
}

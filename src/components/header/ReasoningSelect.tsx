import { adapters, type ReasoningLevel, reasoningLevels } from '../../core/index.ts';
import { useChoose } from '../../hooks/useChoices.ts';
import { useSettings } from '../../hooks/useStores.ts';

const labels: Record<ReasoningLevel, string> = { off: 'Off', low: 'Low', medium: 'Medium', high: 'High' };

/** What the level sends on the protocol in use, for the tooltip. */
function explain(level: ReasoningLevel, protocol: keyof typeof adapters, budget: number): string {
  const on = adapters[protocol].label;
  if (level === 'off') return `${on}: no reasoning parameter (the model's own default)`;
  if (protocol === 'chat') return `${on}: reasoning_effort "${level}"`;
  if (protocol === 'responses') return `${on}: reasoning effort "${level}" with its summary streamed`;
  return `${on}: thinking with a budget of ${budget.toLocaleString('en-US')} tokens (Settings)`;
}

/**
 * How hard the model should think, mapped to each protocol's own parameters (an effort, or Anthropic's
 * thinking budget from Settings). Each conversation remembers its level, like protocol and model.
 */
export function ReasoningSelect() {
  const level = useSettings((s) => s.settings.reasoning);
  const protocol = useSettings((s) => s.settings.protocol);
  const budget = useSettings((s) => (level === 'off' ? 0 : s.settings.thinkingBudgets[level]));
  const choose = useChoose();
  return (
    <label className="toolbar-field toolbar-field-compact">
      <span>Reasoning</span>
      <select
        className="select"
        aria-label="Reasoning"
        value={level}
        title={explain(level, protocol, budget)}
        onChange={(e) => choose({ reasoning: e.target.value as ReasoningLevel })}
      >
        {reasoningLevels.map((l) => (
          <option key={l} value={l}>
            {labels[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

import { adapters, type Protocol, type ReasoningLevel, reasoningLevels } from '../../core/index.ts';
import { useChoices, useChoose } from '../../hooks/useChoices.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { FieldProps } from './ProtocolSelect.tsx';

/** What the level sends on the protocol in use, for the tooltip. */
function explain({ t }: I18n, level: ReasoningLevel, protocol: Protocol, budget: number): string {
  const values = { protocol: adapters[protocol].label, level, budget };
  return t(level === 'off' ? 'reasoning.explain.off' : `reasoning.explain.${protocol}`, values);
}

/**
 * How hard the model should think, mapped to each protocol's own parameters (an effort, or Anthropic's
 * thinking budget from Settings). Each conversation remembers its level, like protocol and model.
 */
export function ReasoningSelect() {
  const { reasoning, protocol } = useChoices();
  const choose = useChoose();
  return <ReasoningField protocol={protocol} value={reasoning} onChange={(l) => choose({ reasoning: l })} />;
}

export function ReasoningField({
  protocol,
  value: level,
  onChange,
  className = 'toolbar-field toolbar-field-compact',
}: FieldProps<ReasoningLevel> & { protocol: Protocol }) {
  const budget = useSettings((s) => (level === 'off' ? 0 : s.settings.thinkingBudgets[level]));
  const i18n = useI18n();
  return (
    <label className={className}>
      <span className="toolbar-field-name">{i18n.t('reasoning.label')}</span>
      <select
        className="select"
        aria-label={i18n.t('reasoning.label')}
        value={level}
        title={explain(i18n, level, protocol, budget)}
        onChange={(e) => onChange(e.target.value as ReasoningLevel)}
      >
        {reasoningLevels.map((l) => (
          <option key={l} value={l}>
            {i18n.t('reasoning.level', { level: l })}
          </option>
        ))}
      </select>
    </label>
  );
}

import { adapters, type Protocol, protocols } from '../../core/index.ts';
import { useChoices, useChoose } from '../../hooks/useChoices.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';

/** A choice of the toolbar's or of a compared column's: its value, what changes it, and its label's class. */
export interface FieldProps<T> {
  value: T;
  onChange(value: T): void;
  className?: string;
}

export function ProtocolField({ value, onChange, className = 'toolbar-field' }: FieldProps<Protocol>) {
  const { t } = useI18n();
  return (
    <label className={className}>
      <span className="toolbar-field-name">{t('protocol.label')}</span>
      <select
        className="select"
        aria-label={t('protocol.label')}
        value={value}
        onChange={(e) => onChange(e.target.value as Protocol)}
      >
        {protocols.map((p) => (
          <option key={p} value={p}>
            {adapters[p].label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Switching protocol at any point: the next request converts the whole history to it. */
export function ProtocolSelect() {
  const { protocol } = useChoices();
  const choose = useChoose();
  return <ProtocolField value={protocol} onChange={(p) => choose({ protocol: p })} />;
}

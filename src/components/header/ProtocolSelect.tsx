import { adapters, type Protocol, protocols } from '../../core/index.ts';
import { useChoices, useChoose } from '../../hooks/useChoices.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';

/** Switching protocol at any point: the next request converts the whole history to it. */
export function ProtocolSelect() {
  const { protocol } = useChoices();
  const choose = useChoose();
  const { t } = useI18n();
  return (
    <label className="toolbar-field">
      <span className="toolbar-field-name">{t('protocol.label')}</span>
      <select
        className="select"
        aria-label={t('protocol.label')}
        value={protocol}
        onChange={(e) => choose({ protocol: e.target.value as Protocol })}
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

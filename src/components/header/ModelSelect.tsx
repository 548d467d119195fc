import type { Protocol } from '../../core/index.ts';
import { useChoices, useChoose } from '../../hooks/useChoices.ts';
import { ModelListError, useModels } from '../../hooks/useModels.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { I18n } from '../../i18n/i18n.tsx';
import type { FieldProps } from './ProtocolSelect.tsx';

/** Why the list is missing, in words: ours by their reason, anything else (the network's) as it came. */
function problem({ t }: I18n, error: Error): string {
  if (!(error instanceof ModelListError)) return error.message;
  const { reason } = error;
  switch (reason.kind) {
    case 'status':
      return t('model.error.status', { status: reason.status });
    case 'base-url':
      return t('model.error.baseUrl');
    case 'policy':
      return t('model.error.policy', { origin: reason.origin });
  }
}

/** Models from the gateway's `GET /v1/models` with `protocol`'s credentials; on the simulator these include the fault scenarios. */
export function ModelField({
  protocol,
  value: model,
  onChange,
  className = 'toolbar-field toolbar-field-grow',
}: FieldProps<string> & { protocol: Protocol }) {
  const i18n = useI18n();
  const { t } = i18n;
  const { data, isPending, isError, error, refetch } = useModels(protocol);
  const models = data ?? [];
  const current = models.find((m) => m.id === model);
  return (
    <label className={className}>
      <span className="toolbar-field-name">{t('model.label')}</span>
      <select
        className="select"
        aria-label={t('model.label')}
        value={model}
        title={current?.description ?? model}
        aria-busy={isPending}
        onChange={(e) => onChange(e.target.value)}
      >
        {/* The chosen model stays selectable even when the list is loading, failed, or lacks it. */}
        {!current ? <option value={model}>{isPending ? t('model.loading', { model }) : model}</option> : null}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.description ? t('model.withDescription', { model: m.id, description: m.description }) : m.id}
          </option>
        ))}
      </select>
      {isError ? (
        <span role="alert" className="toolbar-error">
          {problem(i18n, error)}{' '}
          <button type="button" className="btn btn-small" onClick={() => refetch()}>
            {t('model.reload')}
          </button>
        </span>
      ) : null}
    </label>
  );
}

export function ModelSelect() {
  const { protocol, model } = useChoices();
  const choose = useChoose();
  return <ModelField protocol={protocol} value={model} onChange={(m) => choose({ model: m })} />;
}

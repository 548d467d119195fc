import { useChoose } from '../../hooks/useChoices.ts';
import { useModels } from '../../hooks/useModels.ts';
import { useSettings } from '../../hooks/useStores.ts';

/** Models from the gateway's `GET /v1/models`; on the simulator these include the fault scenarios. */
export function ModelSelect() {
  const model = useSettings((s) => s.settings.model);
  const choose = useChoose();
  const { data, isPending, isError, error, refetch } = useModels();
  const models = data ?? [];
  const current = models.find((m) => m.id === model);
  return (
    <label className="toolbar-field toolbar-field-grow">
      <span>Model</span>
      <select
        className="select"
        aria-label="Model"
        value={model}
        title={current?.description ?? model}
        aria-busy={isPending}
        onChange={(e) => choose({ model: e.target.value })}
      >
        {/* The chosen model stays selectable even when the list is loading, failed, or lacks it. */}
        {!current ? <option value={model}>{isPending ? `${model} (loading models…)` : model}</option> : null}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.description ? `${m.id} — ${m.description}` : m.id}
          </option>
        ))}
      </select>
      {isError ? (
        <span role="alert" className="toolbar-error">
          {error.message}{' '}
          <button type="button" className="btn btn-small" onClick={() => refetch()}>
            Reload models
          </button>
        </span>
      ) : null}
    </label>
  );
}

import { useId } from 'react';
import { useServerPrices } from '../../hooks/usePrices.ts';
import { useSettings } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { readOwnPrices } from '../../state/domain/cost.ts';

const EXAMPLE = '{"my-model": {"input_cost_per_token": 3e-6, "output_cost_per_token": 1.5e-5}}';

/** What the person's prices came to, in words: how many models, what was left out and why. */
function useOwnPricesNote(text: string): { note: string; problem: boolean } | null {
  const { t, format } = useI18n();
  const read = readOwnPrices(text);
  switch (read.kind) {
    case 'empty':
      return null;
    case 'not-json':
      return { note: t('cost.settings.notJson', { reason: read.reason }), problem: true };
    case 'not-a-table':
      return { note: t('cost.settings.notTable'), problem: true };
    case 'read': {
      const priced = t('cost.settings.read', { count: Object.keys(read.table).length });
      if (read.skipped.length === 0) return { note: priced, problem: false };
      const list = format.list(
        read.skipped.map((s) =>
          t('cost.settings.skippedEntry', { model: s.model, field: s.field ?? 'none', value: s.value }),
        ),
      );
      return {
        note: `${priced} ${t('cost.settings.skipped', { count: read.skipped.length, list })}`,
        problem: true,
      };
    }
  }
}

/** Settings' Prices: the server's table, and the person's own prices over it (`settings.ownPrices`). */
export function PricesSection() {
  const { t } = useI18n();
  const server = useServerPrices();
  const text = useSettings((s) => s.settings.ownPrices);
  const update = useSettings((s) => s.update);
  const noteId = useId();
  const note = useOwnPricesNote(text);
  return (
    <fieldset>
      <legend>{t('cost.settings.legend')}</legend>
      <p className="field-help">
        {t('cost.settings.help', { count: Object.keys(server).length, example: EXAMPLE })}
      </p>
      <label className="field">
        <span>{t('cost.settings.label')}</span>
        <textarea
          rows={4}
          spellCheck={false}
          value={text}
          aria-describedby={note ? noteId : undefined}
          aria-invalid={note?.problem ?? false}
          onChange={(e) => update({ ownPrices: e.target.value })}
        />
      </label>
      <p id={noteId} className={note?.problem ? 'field-error' : 'field-help'} role="status">
        {note?.note ?? ''}
      </p>
    </fieldset>
  );
}

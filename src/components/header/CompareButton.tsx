import { useServices } from '../../hooks/appContext.tsx';
import { useChoices } from '../../hooks/useChoices.ts';
import { useCompare } from '../../hooks/useStores.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { LineIcon } from '../shared/LineIcon.tsx';

/** Two columns side by side. */
const compareIcon = 'M4 5h6v14H4ZM14 5h6v14h-6Z';

/** Opens and closes the comparison in the conversation's place (its first columns ask as the toolbar does). */
export function CompareButton() {
  const { t } = useI18n();
  const { stores } = useServices();
  const open = useCompare((s) => s.open);
  const choices = useChoices();
  return (
    <button
      type="button"
      className="btn toolbar-icon compare-toggle"
      aria-label={t('compare.button')}
      title={t('compare.button.title')}
      aria-pressed={open}
      onClick={() => (open ? stores.compare.getState().hide() : stores.compare.getState().show(choices))}
    >
      <LineIcon d={compareIcon} />
    </button>
  );
}

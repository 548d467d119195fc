import { useI18n } from '../../i18n/I18nProvider.tsx';
import type { Version } from '../../state/domain/branches.ts';

export interface VersionSwitchProps {
  version: Version;
  /** The group's accessible name: whose versions these are. */
  label: string;
  onSelect(messageId: string): void;
}

/**
 * ‹ 2 / 3 ›: moves between the versions of a message. A step with nowhere to go stays focusable (marked
 * disabled, doing nothing), so the keyboard does not lose its place at the first or last version.
 */
export function VersionSwitch({ version, label, onSelect }: VersionSwitchProps) {
  const { position, count, previousId, nextId } = version;
  const { t } = useI18n();
  return (
    <fieldset aria-label={label} className="version-switch">
      <button
        type="button"
        className="version-step"
        aria-label={t('version.previous')}
        aria-disabled={previousId === null}
        onClick={() => previousId && onSelect(previousId)}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span className="version-position" aria-live="polite">
        <span aria-hidden="true">
          {position} / {count}
        </span>
        <span className="visually-hidden">{t('version.position', { position, count })}</span>
      </span>
      <button
        type="button"
        className="version-step"
        aria-label={t('version.next')}
        aria-disabled={nextId === null}
        onClick={() => nextId && onSelect(nextId)}
      >
        <span aria-hidden="true">›</span>
      </button>
    </fieldset>
  );
}

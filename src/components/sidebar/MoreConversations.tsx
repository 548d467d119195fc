import { useEffect, useRef } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';

/**
 * The end of a list that holds more than it renders: a button for the next page, pressed on its own when
 * it scrolls into view (a keyboard or screen reader user presses it).
 */
export function MoreConversations({ remaining, onMore }: { remaining: number; onMore(): void }) {
  const { t } = useI18n();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = button.current;
    if (!element || typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onMore();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [onMore]);
  return (
    <li className="more-conversations">
      <button ref={button} type="button" className="btn btn-small" onClick={onMore}>
        {t('sidebar.more', { n: remaining })}
      </button>
    </li>
  );
}

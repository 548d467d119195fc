import { type Ref, useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import {
  isApplePlatform,
  isSearchShortcut,
  isTextField,
  shortcutHint,
  shortcutKeys,
} from './searchShortcut.ts';
import { preloadSearch } from './useConversationSearch.ts';

export interface SearchBoxProps {
  ref: Ref<HTMLInputElement>;
  value: string;
  onChange(value: string): void;
  /** The shortcut was pressed anywhere on the page. */
  onShortcut(): void;
  /** Enter: open the first result. */
  onOpenFirst(): void;
  /** Arrow down: move to the results. */
  onFocusResults(): void;
}

/**
 * The sidebar's search box ("Search conversations"). Escape clears it; the shortcut in its placeholder
 * (Ctrl+K or ⌘K anywhere, "/" outside text fields) brings focus here from anywhere on the page.
 */
export function SearchBox({ ref, value, onChange, onShortcut, onOpenFirst, onFocusResults }: SearchBoxProps) {
  const [apple] = useState(() => isApplePlatform(navigator.platform));
  const { t } = useI18n();
  const latest = useRef(onShortcut);
  latest.current = onShortcut;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const context = {
        apple,
        typing: isTextField(event.target instanceof Element ? event.target : null),
        modalOpen: document.querySelector('[aria-modal="true"]') !== null,
      };
      if (!isSearchShortcut(event, context)) return;
      event.preventDefault();
      latest.current();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [apple]);

  return (
    <div className="search">
      <input
        ref={ref}
        type="search"
        className="search-input"
        aria-label={t('search.label')}
        aria-keyshortcuts={shortcutKeys(apple)}
        placeholder={t('search.placeholder', { shortcut: shortcutHint(apple) })}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={preloadSearch}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && value !== '') {
            e.preventDefault();
            onChange('');
          } else if (e.key === 'Enter') {
            e.preventDefault();
            onOpenFirst();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            onFocusResults();
          }
        }}
      />
    </div>
  );
}

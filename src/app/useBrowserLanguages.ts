import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('languagechange', onChange);
  return () => window.removeEventListener('languagechange', onChange);
}

// A string: `navigator.languages` need not be the same array from one read to the next.
const snapshot = () => navigator.languages.join(',');

/** The browser's preferred languages, most preferred first; they change when the person reorders them. */
export function useBrowserLanguages(): readonly string[] {
  const languages = useSyncExternalStore(subscribe, snapshot);
  return languages === '' ? [] : languages.split(',');
}

import { localStorageHere } from '../../state/storage/screenSnapshot.ts';
import { restoreFirstScreen } from './restoreFirstScreen.ts';

// The inline script the production build runs right after `#root` is parsed (`firstScreenScript`), the
// second startup beside `main.tsx`. Its mark goes on the page's timeline with the app's steps.
try {
  const kept = localStorageHere();
  if (kept && restoreFirstScreen(document, kept)) performance.mark('hopbase:snapshot-shown');
} catch (error) {
  // Only a head start: the app comes all the same.
  console.warn('Could not show the last screen', error);
}

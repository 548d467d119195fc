import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { disposeTestApps } from './testApp.tsx';

// CI runs on a loaded 2-core machine: what a person would see may take seconds to appear there, not 1 s.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  disposeTestApps();
});

import type { Catalog } from './catalogs/en.ts';
import type { Locale } from './locales.ts';

/**
 * A language's catalog, fetched when it is first needed: only English is in the first screen's code.
 * English itself is the fallback every catalog is completed with, so it loads nothing.
 */
export async function loadCatalog(locale: Locale): Promise<Partial<Catalog>> {
  switch (locale) {
    case 'en':
      return {};
    case 'es':
      return (await import('./catalogs/es.ts')).es;
    case 'zh-CN':
      return (await import('./catalogs/zh-CN.ts')).zhCN;
    case 'ja':
      return (await import('./catalogs/ja.ts')).ja;
  }
}

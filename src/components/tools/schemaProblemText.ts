import type { SchemaProblem } from '../../core/index.ts';
import type { I18n } from '../../i18n/i18n.tsx';

/** Why a typed schema was refused, and where, in the person's language. */
export function schemaProblemText({ t }: Pick<I18n, 't'>, problem: SchemaProblem): string {
  switch (problem.kind) {
    case 'json':
      return problem.place
        ? t('tools.error.jsonAt', { line: problem.place.line, column: problem.place.column })
        : t('tools.error.json');
    case 'notObject':
      return t('tools.error.notObject');
    case 'schema':
      return t('tools.error.schema', { path: problem.path || '/', keyword: problem.keyword });
  }
}

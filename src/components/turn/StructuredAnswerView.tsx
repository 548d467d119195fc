import { useEffect, useMemo, useState } from 'react';
import { type StructuredAnswer, schemaChecker, type Violation } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './structured.css';

type Parsed = { ok: true; value: unknown } | { ok: false };

/** A JSON Pointer's next step: `~` and `/` in a key escaped as RFC 6901 says. */
function childPath(path: string, key: string | number): string {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function Marks({ path, violations }: { path: string; violations: readonly Violation[] }) {
  const { t } = useI18n();
  const here = violations.filter((v) => v.path === path);
  return here.map((v) => (
    <span key={v.keyword} className="structured-mark">
      {t('structured.mark', { keyword: v.keyword })}
    </span>
  ));
}

/** One value of the answer: a leaf in a line, an object or array as a list that folds. */
function Node({
  name,
  value,
  path,
  violations,
}: {
  name: string;
  value: unknown;
  path: string;
  violations: readonly Violation[];
}) {
  const { t } = useI18n();
  if (typeof value !== 'object' || value === null)
    return (
      <li data-path={path}>
        <span className="structured-key">{name}</span> <code>{JSON.stringify(value)}</code>{' '}
        <Marks path={path} violations={violations} />
      </li>
    );
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value);
  return (
    <li data-path={path}>
      <details open>
        <summary>
          <span className="structured-key">{name}</span>{' '}
          <span className="structured-kind">
            {t('structured.kind', { array: Array.isArray(value) ? 'yes' : 'no', count: entries.length })}
          </span>{' '}
          <Marks path={path} violations={violations} />
        </summary>
        <ul aria-label={name}>
          {entries.map(([key, item]) => (
            <Node
              key={key}
              name={String(key)}
              value={item}
              path={childPath(path, key)}
              violations={violations}
            />
          ))}
        </ul>
      </details>
    </li>
  );
}

/**
 * An answer that had to match a schema: checked against it once it ended, shown as a tree that folds, each
 * place that breaks the schema marked there and listed with its path.
 */
export function StructuredAnswerView({ answer }: { answer: StructuredAnswer }) {
  const { t } = useI18n();
  const parsed = useMemo<Parsed>(() => {
    try {
      return { ok: true, value: JSON.parse(answer.text) };
    } catch {
      return { ok: false };
    }
  }, [answer.text]);
  const [violations, setViolations] = useState<Violation[] | null>(null);
  useEffect(() => {
    if (!parsed.ok) return;
    let live = true;
    void schemaChecker().then((checker) => live && setViolations(checker.check(answer.schema, parsed.value)));
    return () => {
      live = false;
    };
  }, [parsed, answer.schema]);
  const state = !parsed.ok
    ? 'notJson'
    : violations === null
      ? 'checking'
      : violations.length
        ? 'breaks'
        : 'matches';
  return (
    <section className="structured" aria-label={t('structured.region')}>
      <p className={`structured-state structured-${state}`} role="status">
        {t('structured.state', { state, count: violations?.length ?? 0 })}
      </p>
      {violations?.length ? (
        <ul className="structured-violations" aria-label={t('structured.violations')}>
          {violations.map((v) => (
            <li key={`${v.path} ${v.keyword}`}>
              {t('structured.violation', { path: v.path || '/', keyword: v.keyword })}
            </li>
          ))}
        </ul>
      ) : null}
      {parsed.ok ? (
        <ul className="structured-tree" aria-label={t('structured.tree')}>
          <Node name={t('structured.root')} value={parsed.value} path="" violations={violations ?? []} />
        </ul>
      ) : null}
    </section>
  );
}

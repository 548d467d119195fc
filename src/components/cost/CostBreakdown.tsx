import type { AttemptCost, CostBreakdown as Breakdown } from '../../core/index.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import { shownLines } from './costWords.ts';

const PER_MILLION = 1_000_000;

/** One priced bill: a row per kind of token (count, price per million, cost), then the total. */
function BillTable({ breakdown, total }: { breakdown: Breakdown; total: number }) {
  const { t, format } = useI18n();
  return (
    <table className="cost-table">
      <thead>
        <tr>
          <th scope="col">{t('cost.col.kind')}</th>
          <th scope="col">{t('cost.col.tokens')}</th>
          <th scope="col">{t('cost.col.price')}</th>
          <th scope="col">{t('cost.col.amount')}</th>
        </tr>
      </thead>
      <tbody>
        {shownLines(breakdown).map((kind) => {
          const line = breakdown[kind];
          return (
            <tr key={kind} data-line={kind}>
              <th scope="row">{t(`cost.line.${kind}`)}</th>
              <td>{format.count(line.tokens)}</td>
              <td>{format.usd(line.price * PER_MILLION)}</td>
              <td>{format.usd(line.dollars)}</td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr data-line="total">
          <th scope="row">{t('cost.line.total')}</th>
          <td />
          <td />
          <td>{format.usd(total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** What one attempt cost and how: its bill, the gateway's figure, or why it has none. */
function AttemptBill({ cost, model }: { cost: AttemptCost; model: string }) {
  const { t, format } = useI18n();
  switch (cost.kind) {
    case 'priced':
      return (
        <>
          <BillTable breakdown={cost.breakdown} total={cost.dollars} />
          {cost.longContext ? <p>{t('cost.note.longContext')}</p> : null}
        </>
      );
    case 'gateway':
      return (
        <>
          <p>
            {t('cost.note.gateway', {
              amount: format.usd(cost.dollars),
              estimate: cost.estimate ? format.usd(cost.estimate.dollars) : 'none',
            })}
          </p>
          {cost.estimate ? (
            <BillTable breakdown={cost.estimate.breakdown} total={cost.estimate.dollars} />
          ) : null}
        </>
      );
    case 'unpriced':
      return <p>{t('cost.note.unpriced', { model })}</p>;
    case 'unmetered':
      return <p>{t('cost.note.unmetered')}</p>;
    case 'none':
      return <p>{t('cost.note.none')}</p>;
  }
}

export interface AttemptCostView {
  cost: AttemptCost;
  /** How the attempt ended, in words (`answer.status`). */
  status: string;
}

/** An answer's cost, attempt by attempt: the contents of the usage line's breakdown. */
export function CostBreakdown({ attempts, model }: { attempts: readonly AttemptCostView[]; model: string }) {
  const { t } = useI18n();
  const several = attempts.length > 1;
  return (
    <>
      <p className="cost-heading">{t('cost.breakdown')}</p>
      {attempts.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: attempts only ever grow at the end
        <section key={i} className="cost-attempt">
          {several ? (
            <p className="cost-attempt-title">
              {t('cost.attempt', {
                n: i + 1,
                count: attempts.length,
                status: a.status,
              })}
            </p>
          ) : null}
          <AttemptBill cost={a.cost} model={model} />
        </section>
      ))}
      {several ? <p>{t('cost.note.sum', { count: attempts.length })}</p> : null}
    </>
  );
}

import { finishNotice, type Turn } from '../../core/index.ts';
import { explainFinish } from '../../i18n/explain.ts';
import { useI18n } from '../../i18n/I18nProvider.tsx';
import './banners.css';

/** A note under an answer that ended normally but is not the whole answer (src/core/finishNotice.ts). */
export function FinishNoticeBanner({ turn }: { turn: Turn }) {
  const i18n = useI18n();
  const notice = finishNotice(turn);
  if (!notice) return null;
  return (
    <div role="note" className="banner banner-warn">
      <div className="banner-text">{i18n.rich('banner.lead', { ...explainFinish(i18n, notice) })}</div>
    </div>
  );
}

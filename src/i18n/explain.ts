import type { FailureAdvice, FinishNotice } from '../core/index.ts';
import type { I18n } from './i18n.tsx';

/** What the core names by a code, in words: a title and what to do. */
export interface Explanation {
  title: string;
  advice: string;
}

export function explainFailure({ t }: Pick<I18n, 't'>, advice: FailureAdvice): Explanation {
  return {
    title: t(`failure.${advice.code}.title`, advice.values),
    advice: t(`failure.${advice.code}.advice`, advice.values),
  };
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

export function explainFinish({ t }: Pick<I18n, 't'>, notice: FinishNotice): Explanation {
  const values = {
    shown: yesNo(notice.outputShown),
    cut: yesNo(notice.toolCallCut),
    withRaw: yesNo(notice.rawFinishReason !== null),
    raw: notice.rawFinishReason ?? '',
  };
  return {
    title: t(`finish.${notice.code}.title`, values),
    advice: t(`finish.${notice.code}.advice`, values),
  };
}

/** The titles alone, for an exported conversation's notes (src/state/conversationExport.ts). */
export function explanationTitles(i18n: Pick<I18n, 't'>) {
  return {
    failure: (advice: FailureAdvice) => explainFailure(i18n, advice).title,
    finish: (notice: FinishNotice) => explainFinish(i18n, notice).title,
  };
}

import type { FailureAdvice, FinishNotice } from '../core/index.ts';
import type { MessageKey } from './catalogs/en.ts';
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

/** A phrase of an exported conversation's Markdown: a `markdownExport.*` message, without its prefix. */
type ExportPhrase = MessageKey extends infer Key
  ? Key extends `markdownExport.${infer P}`
    ? P
    : never
  : never;

/**
 * The words of an exported conversation (src/state/formats/conversationExport.ts): the titles of its notes, its
 * phrases, and file sizes and lists as the language writes them.
 */
export function exportWords(i18n: Pick<I18n, 't' | 'format'>) {
  return {
    failure: (advice: FailureAdvice) => explainFailure(i18n, advice).title,
    finish: (notice: FinishNotice) => explainFinish(i18n, notice).title,
    phrase: (name: ExportPhrase, values?: Readonly<Record<string, string | number>>) =>
      i18n.t(`markdownExport.${name}`, values),
    fileSize: (bytes: number) => i18n.format.fileSize(bytes),
    list: (items: readonly string[]) => i18n.format.list(items),
  };
}

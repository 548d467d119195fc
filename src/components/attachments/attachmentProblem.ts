import type { I18n } from '../../i18n/i18n.tsx';
import type { AttachmentProblem } from '../../state/domain/attachmentFiles.ts';

/** Why a file was refused, in the person's language: the file named, sizes as file managers show them. */
export function describeAttachmentProblem(
  { t, format }: Pick<I18n, 't' | 'format'>,
  problem: AttachmentProblem,
): string {
  switch (problem.code) {
    case 'image_too_large':
    case 'text_too_large':
    case 'message_too_large':
      return t(`attach.${problem.code}`, {
        name: problem.name,
        size: format.fileSize(problem.bytes),
        limit: format.fileSize(problem.limit),
      });
    case 'image_kind':
      return t('attach.image_kind', { name: problem.name, extension: problem.extension || 'none' });
    case 'too_many':
      return t('attach.too_many', { name: problem.name, limit: problem.limit });
    case 'unreadable':
    case 'not_stored':
      return t(`attach.${problem.code}`, { name: problem.name, error: problem.error });
    default:
      return t(`attach.${problem.code}`, { name: problem.name });
  }
}

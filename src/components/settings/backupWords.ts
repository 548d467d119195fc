import type { I18n } from '../../i18n/i18n.tsx';
import type {
  BackupEntry,
  BackupFile,
  BackupRefusal,
  RestoredCounts,
  RestoredFiles,
} from '../../state/formats/backup.ts';
import type { RestoreOutcome } from '../../state/storage/backupRecords.ts';

type Words = Pick<I18n, 't'>;

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

/** "Backed up 12 conversations, 3 recordings, 2 attachments and the settings (not the API key) to …". */
export function backupSummary({ t }: Words, file: BackupFile): string {
  return t('backup.done', {
    conversations: file.conversations,
    recordings: file.recordings,
    attachments: file.attachments,
    name: file.name,
    leftOut: file.leftOut,
    missing: file.missingAttachments,
  });
}

/** Why a file was refused whole; nothing was written. */
export function refusalText({ t }: Words, refusal: BackupRefusal): string {
  if (refusal.code !== 'newer_version') return t(`backup.refusal.${refusal.code}`);
  const { version, app, reads } = refusal;
  return t('backup.refusal.newer_version', { version, reads, app: app ?? '', withApp: yesNo(app !== null) });
}

/** The entry of the file as a person finds it there: "conversation 3 (Holiday plans)". */
export function entryName({ t }: Words, entry: BackupEntry): string {
  switch (entry.kind) {
    case 'conversation':
      return t('backup.entry.conversation', { ...entry, titled: yesNo(entry.title !== '') });
    case 'recording':
      return t('backup.entry.recording', { ...entry, titled: yesNo(entry.title !== '') });
    case 'attachment':
      return t('backup.entry.attachment', { ...entry, named: yesNo(entry.name !== '') });
    case 'setting':
      return t('backup.entry.setting', { key: entry.key });
    default:
      return t(`backup.entry.${entry.kind}`);
  }
}

/** "Restored 12 conversations, 3 recordings; 1 entry could not be read." and what changed here. */
export function restoreSummary(
  { t }: Words,
  counts: RestoredCounts,
  outcome: RestoreOutcome,
  files: RestoredFiles = { written: 0, kept: 0 },
): string {
  const headline = t('backup.restored', { ...counts });
  const { added, revived, joined, unchanged } = outcome;
  const wrote =
    added.length + revived.length + joined.length > 0 ||
    outcome.recordingsWritten > 0 ||
    files.written > 0 ||
    outcome.settings === 'applied';
  if (!wrote) return t('backup.restored.nothingChanged', { headline });
  const parts = [
    added.length ? t('backup.restored.added', { n: added.length }) : '',
    revived.length ? t('backup.restored.revived', { n: revived.length }) : '',
    joined.length ? t('backup.restored.joined', { n: joined.length }) : '',
    unchanged.length ? t('backup.restored.unchanged', { n: unchanged.length }) : '',
  ].filter(Boolean);
  return t('backup.restored.changes', {
    headline,
    withConversations: yesNo(parts.length > 0),
    conversations: parts.join(t('backup.restored.separator')),
    files: files.written,
    settings: outcome.settings,
    reload: yesNo(!outcome.announced),
  });
}

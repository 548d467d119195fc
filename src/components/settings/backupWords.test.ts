import { describe, expect, it } from 'vitest';
import { es } from '../../i18n/catalogs/es.ts';
import { ja } from '../../i18n/catalogs/ja.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import type { BackupFile, BackupRefusal } from '../../state/formats/backup.ts';
import type { RestoreOutcome } from '../../state/storage/backupRecords.ts';
import { backupSummary, entryName, refusalText, restoreSummary } from './backupWords.ts';

const en = createI18n('en');

const file = (counts: Partial<BackupFile>): BackupFile => ({
  name: 'hopbase-chat-backup-2025-10-02.json',
  text: '{}',
  conversations: 2,
  recordings: 4,
  attachments: 0,
  missingAttachments: 0,
  leftOut: 0,
  ...counts,
});

const outcome = (changes: Partial<RestoreOutcome>): RestoreOutcome => ({
  added: [],
  revived: [],
  joined: [],
  unchanged: [],
  recordingsWritten: 0,
  recordingsKept: 0,
  settings: 'none',
  gateway: null,
  setAside: [],
  announced: true,
  ...changes,
});

const ids = (n: number) => Array.from({ length: n }, (_, i) => `conv_${i}`);

describe('backupSummary', () => {
  it.each([
    [
      file({}),
      'Backed up 2 conversations, 4 recordings and the settings (not the API key) to hopbase-chat-backup-2025-10-02.json.',
    ],
    [
      file({ conversations: 1, recordings: 0, attachments: 2 }),
      'Backed up 1 conversation, 0 recordings, 2 attachments and the settings (not the API key) to hopbase-chat-backup-2025-10-02.json.',
    ],
    [
      file({ conversations: 1, recordings: 1, attachments: 1, leftOut: 1, missingAttachments: 1 }),
      'Backed up 1 conversation, 1 recording, 1 attachment and the settings (not the API key) to hopbase-chat-backup-2025-10-02.json. 1 saved record could not be read and is not in it (still kept in this browser). 1 attachment is no longer stored in this browser, so not in it.',
    ],
  ])('%#: in English', (backup, text) => {
    expect(backupSummary(en, backup)).toBe(text);
  });

  it('in Japanese, with its own counters and stops', () => {
    expect(backupSummary(createI18n('ja', ja), file({ conversations: 1234, leftOut: 2 }))).toBe(
      '会話 1,234 件、記録 4 件と設定（API キーを除く）を hopbase-chat-backup-2025-10-02.json にバックアップしました。保存済みのレコード 2 件は読み取れなかったため含まれていません（このブラウザーには残っています）。',
    );
  });
});

describe('restoreSummary', () => {
  const counts = { conversations: 3, recordings: 6, attachments: 0, problems: 0 };
  it.each([
    [
      counts,
      outcome({ added: ids(3), settings: 'applied', announced: false }),
      'Restored 3 conversations, 6 recordings. Conversations: 3 new here. Settings applied (the API key stays as it is). Reload the page to see them.',
    ],
    [
      { ...counts, conversations: 2, recordings: 4 },
      outcome({ unchanged: ids(2), settings: 'unchanged' }),
      'Restored 2 conversations, 4 recordings. All of it was here already: nothing changed.',
    ],
    [
      { conversations: 12, recordings: 3, attachments: 0, problems: 1 },
      outcome({ added: ids(2), revived: ids(1), unchanged: ids(9), recordingsWritten: 1 }),
      'Restored 12 conversations, 3 recordings; 1 entry could not be read. Conversations: 2 new here, 1 brought back after being deleted, 9 here already.',
    ],
    [
      { conversations: 3, recordings: 6, attachments: 1, problems: 5 },
      outcome({ revived: ids(1), joined: ids(2), settings: 'unchanged' }),
      'Restored 3 conversations, 6 recordings, 1 attachment; 5 entries could not be read. Conversations: 1 brought back after being deleted, 2 joined with the copy here. Settings as in the backup already.',
    ],
  ])('%#: in English', (read, result, text) => {
    expect(restoreSummary(en, read, result)).toBe(text);
  });

  it('names the attachments it wrote', () => {
    const read = { conversations: 2, recordings: 3, attachments: 1, problems: 0 };
    expect(restoreSummary(en, read, outcome({ added: ids(2) }), { written: 1, kept: 0 })).toBe(
      'Restored 2 conversations, 3 recordings, 1 attachment. Conversations: 2 new here. Attachments: 1 new here.',
    );
  });

  it('in Spanish, the parts joined as Spanish joins them', () => {
    const read = { conversations: 12, recordings: 3, attachments: 0, problems: 1 };
    expect(restoreSummary(createI18n('es', es), read, outcome({ added: ids(2), unchanged: ids(9) }))).toBe(
      'Restaurado: 12 conversaciones, 3 grabaciones; 1 entrada no se pudo leer. Conversaciones: 2 nuevas aquí, 9 ya estaban aquí.',
    );
  });
});

describe('refusalText', () => {
  it.each<[BackupRefusal, string]>([
    [{ code: 'not_json' }, 'This file is not a HopBase Chat backup: it is not JSON. Nothing was changed.'],
    [{ code: 'not_backup' }, 'This file is not a HopBase Chat backup. Nothing was changed.'],
    [
      { code: 'conversation_file' },
      'This file is one conversation exported as JSON, not a backup. Nothing was changed.',
    ],
    [
      { code: 'trace_file' },
      'This file is a recording exported from the inspector (import it there), not a backup. Nothing was changed.',
    ],
    [
      { code: 'newer_version', version: 2, app: '0.9.0', reads: 1 },
      'This backup was made by a newer version of HopBase Chat (backup version 2, app 0.9.0); this version reads version 1. Update the app, then restore it. Nothing was changed.',
    ],
    [
      { code: 'newer_version', version: 3, app: null, reads: 1 },
      'This backup was made by a newer version of HopBase Chat (backup version 3); this version reads version 1. Update the app, then restore it. Nothing was changed.',
    ],
    [{ code: 'no_version' }, 'This backup is damaged: its version is missing. Nothing was changed.'],
    [
      { code: 'no_conversations' },
      'This backup is damaged: it has no list of conversations. Nothing was changed.',
    ],
  ])('%j', (refusal, text) => {
    expect(refusalText(en, refusal)).toBe(text);
  });
});

describe('entryName', () => {
  it.each([
    [{ kind: 'conversation', number: 2, title: 'Damaged' } as const, 'conversation 2 (Damaged)'],
    [{ kind: 'conversation', number: 4, title: '' } as const, 'conversation 4'],
    [
      { kind: 'recording', number: 3, title: 'Conversation 2', attemptId: 'att_2_1' } as const,
      'conversation 3 (Conversation 2), recording of attempt att_2_1',
    ],
    [{ kind: 'attachment', number: 1, name: 'photo.png' } as const, 'attachment 1 (photo.png)'],
    [{ kind: 'attachments' } as const, 'attachments'],
    [{ kind: 'settings' } as const, 'settings'],
    [{ kind: 'setting', key: 'temperature' } as const, 'setting temperature'],
  ])('%j', (entry, text) => {
    expect(entryName(en, entry)).toBe(text);
  });
});

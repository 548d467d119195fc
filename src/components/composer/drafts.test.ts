import { beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentRef } from '../../state/domain/types.ts';
import { draftAttachmentIds, readDraftFiles, writeDraftFiles } from './drafts.ts';

const ref = (id: string): AttachmentRef => ({
  id,
  name: `${id}.md`,
  mimeType: 'text/markdown',
  size: 2,
  kind: 'text',
});

beforeEach(() => sessionStorage.clear());

describe('a draft’s files', () => {
  it('are kept per draft and read back; an empty list is kept as such, null forgets them', () => {
    writeDraftFiles('conv_1', [ref('file_a')]);
    writeDraftFiles('edit:m1', []);
    expect(readDraftFiles('conv_1')).toEqual([ref('file_a')]);
    expect(readDraftFiles('edit:m1')).toEqual([]);
    expect(readDraftFiles('conv_2')).toBeNull();
    writeDraftFiles('conv_1', null);
    expect(readDraftFiles('conv_1')).toBeNull();
  });

  it('leave out what is not a file reference, and read nothing from damaged storage', () => {
    sessionStorage.setItem(
      'hopbase-chat:draft-files:conv_1',
      JSON.stringify([ref('file_a'), { id: 3 }, null]),
    );
    sessionStorage.setItem('hopbase-chat:draft-files:conv_2', '{not json');
    expect(readDraftFiles('conv_1')).toEqual([ref('file_a')]);
    expect(readDraftFiles('conv_2')).toBeNull();
  });

  it('are all named for the sweep, whichever draft holds them', () => {
    writeDraftFiles('conv_1', [ref('file_a'), ref('file_b')]);
    writeDraftFiles('edit:m1', [ref('file_c')]);
    sessionStorage.setItem('hopbase-chat:draft:conv_1', 'text');
    expect(draftAttachmentIds().sort()).toEqual(['file_a', 'file_b', 'file_c']);
  });
});

/**
 * A conversation's own system prompt in the state: set and kept by the store, checked when a record is read,
 * kept when two tabs' copies are joined, and written in the Markdown export.
 */
import { describe, expect, it } from 'vitest';
import { exportWords } from '../../i18n/explain.ts';
import { createI18n } from '../../i18n/i18n.tsx';
import { mergeConversation } from '../domain/merge.ts';
import type { Conversation } from '../domain/types.ts';
import { exportConversationMarkdown } from '../formats/conversationExport.ts';
import { readConversationRecord } from '../formats/records.ts';
import { createConversationStore, systemPromptOf } from './conversationStore.ts';

const conversation = (fields: Partial<Conversation> = {}): Conversation => ({
  id: 'c1',
  title: 'Haiku',
  createdAt: 1,
  updatedAt: 2,
  messages: [{ id: 'm1', role: 'user', text: 'Hello', createdAt: 1 }],
  ...fields,
});

describe('the store', () => {
  it('sets a conversation’s prompt without moving it in the list', () => {
    const store = createConversationStore();
    const first = store.getState().newConversation();
    const second = store.getState().newConversation();
    const before = store.getState().conversations[first]!;
    store.getState().setSystemPrompt(first, 'Answer in haiku');
    const after = store.getState().conversations[first]!;
    expect(after.systemPrompt).toBe('Answer in haiku');
    expect(after.updatedAt).toBe(before.updatedAt);
    expect(store.getState().order).toEqual([second, first]);
    // The same prompt again changes nothing.
    store.getState().setSystemPrompt(first, 'Answer in haiku');
    expect(store.getState().conversations[first]).toBe(after);
  });

  it('a conversation sends its own prompt, or the default while it has none', () => {
    expect(systemPromptOf(conversation({ systemPrompt: 'Own' }), 'Default')).toBe('Own');
    expect(systemPromptOf(conversation({ systemPrompt: '' }), 'Default')).toBe('');
    expect(systemPromptOf(conversation(), 'Default')).toBe('Default');
    expect(systemPromptOf(undefined, 'Default')).toBe('Default');
  });
});

describe('stored records', () => {
  const read = (fields: Record<string, unknown>) =>
    readConversationRecord('conversation:c1', { ...conversation(), ...fields });

  it('keep the prompt; a record from before it was remembered has none', () => {
    const kept = read({ systemPrompt: 'Answer in haiku' });
    expect(kept.kind === 'conversation' && kept.conversation.systemPrompt).toBe('Answer in haiku');
    const old = read({});
    expect(old.kind === 'conversation' && 'systemPrompt' in old.conversation).toBe(false);
  });

  it('a prompt that is not text makes the record unreadable, kept aside with the reason', () => {
    expect(read({ systemPrompt: 42 })).toEqual({
      kind: 'unreadable',
      reason: 'systemPrompt: expected a string',
      revision: 0,
    });
  });
});

describe('two tabs', () => {
  it('a prompt set in the other tab is kept; where both set one, this tab’s wins', () => {
    const mine = conversation();
    const theirs = conversation({ systemPrompt: 'Theirs' });
    expect(mergeConversation(mine, theirs).systemPrompt).toBe('Theirs');
    expect(mergeConversation(conversation({ systemPrompt: 'Mine' }), theirs).systemPrompt).toBe('Mine');
  });
});

describe('the Markdown export', () => {
  const english = exportWords(createI18n('en'));

  it('has the prompt as a section of its own, before the messages', () => {
    const markdown = exportConversationMarkdown(
      conversation({ systemPrompt: 'Answer in haiku.\n\nNever in prose.' }),
      '',
      0,
      english,
    );
    expect(markdown).toContain('\n\n## System prompt\n\n> Answer in haiku.\n>\n> Never in prose.\n\n## You');
  });

  it('has none when the prompt is empty', () => {
    expect(exportConversationMarkdown(conversation({ systemPrompt: ' ' }), '', 0, english)).not.toContain(
      'System prompt',
    );
  });
});

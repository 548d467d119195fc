import { describe, expect, it } from 'vitest';
import { emptyTurn, type Turn } from '../../core/index.ts';
import { fold, markdownToPlain } from '../../core/searchText.ts';
import { answerMessage } from '../../testing/builders.ts';
import { createConversationSearch, highlightRanges, type Range, snippet } from './conversationSearch.ts';
import type { AssistantMessage, ChatMessage, Conversation } from './types.ts';

/** The highlighted parts of `text`, for tables that read like the screen. */
const marked = (text: string, ranges: readonly Range[]) => ranges.map(([s, e]) => text.slice(s, e));

describe('fold', () => {
  it.each([
    ['Hello World', 'hello world'],
    ['Café', 'cafe'],
    ['cafe\u0301 (decomposed)', 'cafe (decomposed)'],
    ['ÉCOLE Über Ñandú', 'ecole uber nandu'],
    ['İstanbul', 'istanbul'],
    ['ΟΔΥΣΣΕΥΣ', 'οδυσσευσ'],
    ['Straße Łódź Søren Æsir', 'strasse lodz soren aesir'],
    ['ＡＢＣ１２３', 'abc123'],
    ['東京タワー', '東京タワー'],
    ['がぎぐ', 'がぎぐ'],
    ['한국어', '한국어'],
    ['tabs\tand\n\n  newlines', 'tabs and newlines'],
    ['emoji 😀 stay', 'emoji 😀 stay'],
  ])('%j → %j', (text, folded) => {
    expect(fold(text)).toBe(folded);
  });
});

describe('highlightRanges', () => {
  it.each([
    ['Café au lait at the café', 'cafe', ['Café', 'café']],
    ['cafe\u0301 society', 'cafe', ['cafe\u0301']],
    ['Nothing here', 'cafe', []],
    ['東京タワーと東京駅', '東京', ['東京', '東京']],
    ['大阪で会いましょう', '会い', ['会い']],
    ['aaaa', 'aa', ['aa', 'aa']],
    ['Die Straße ist lang', 'strasse', ['Straße']],
    ['two  spaces\n\nhere', 'spaces here', ['spaces\n\nhere']],
    ['😀 Emoji before Ünïcode', 'unicode', ['Ünïcode']],
    ['anything', '', []],
  ])('in %j, %j highlights %j', (text, query, parts) => {
    expect(marked(text, highlightRanges(text, fold(query)))).toEqual(parts);
  });
});

describe('snippet', () => {
  const long = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3)}The Café terrace opens at nine. ${'Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(3)}`;

  it.each([
    {
      name: 'a short text whole, the match marked',
      text: 'Meet me at the café',
      query: 'cafe',
      expected: { text: 'Meet me at the café', marks: ['café'] },
    },
    {
      name: 'newlines collapsed to spaces',
      text: 'Line one\n\nline two café\nline three',
      query: 'CAFE',
      expected: { text: 'Line one line two café line three', marks: ['café'] },
    },
    {
      name: 'a long text cut at word boundaries around the first match, with ellipses',
      text: long,
      query: 'cafe terrace',
      expected: {
        text: '…adipiscing elit. The Café terrace opens at nine. Sed do eiusmod tempor incididunt ut labore et dolore magna…',
        marks: ['Café terrace'],
      },
    },
    {
      name: 'CJK text without spaces, cut by characters',
      text: `${'あ'.repeat(50)}東京タワー${'い'.repeat(200)}`,
      query: 'タワー',
      expected: {
        text: `…${'あ'.repeat(26)}東京タワー${'い'.repeat(79)}…`,
        marks: ['タワー'],
      },
    },
    {
      name: 'every match inside the excerpt marked',
      text: 'cafe, Café, CAFÉ',
      query: 'café',
      expected: { text: 'cafe, Café, CAFÉ', marks: ['cafe', 'Café', 'CAFÉ'] },
    },
    { name: 'null without a match', text: 'Nothing', query: 'cafe', expected: null },
  ])('$name', ({ text, query, expected }) => {
    const result = snippet(text, fold(query));
    expect(result && { text: result.text, marks: marked(result.text, result.ranges) }).toEqual(expected);
  });

  it('never splits a surrogate pair at either end', () => {
    const text = `${'😀'.repeat(40)}needle${'🎉'.repeat(80)}`;
    const result = snippet(text, 'needle')!;
    expect(result.text.startsWith('…😀')).toBe(true);
    expect(result.text.endsWith('🎉…')).toBe(true);
    expect(result.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(marked(result.text, result.ranges)).toEqual(['needle']);
  });
});

describe('markdownToPlain', () => {
  it.each([
    ['## Heading', 'Heading'],
    ['> quoted **bold** text', 'quoted bold text'],
    ['- **Words:** 3', 'Words: 3'],
    ['1. first', 'first'],
    ['You wrote: *hello there*.', 'You wrote: hello there.'],
    ['a [link](https://example.com) and ![alt](x.png)', 'a link and alt'],
    ['`inline_code` and snake_case_name', 'inline_code and snake_case_name'],
    ['| # | Word |\n|---|------|\n| 1 | zebra |', '#  Word\n1  zebra'],
    ['```ts\nconst **x** = a_b;\n```\nafter', 'const **x** = a_b;\nafter'],
    ['~~gone~~ __strong__', 'gone strong'],
  ])('%j → %j', (markdown, plain) => {
    expect(markdownToPlain(markdown)).toBe(plain);
  });
});

// -------------------------------------------------------------------------------------------------------
// The index and the search

const turn = (patch: Partial<Turn>): Turn => ({ ...emptyTurn, status: 'complete', ...patch });

const answer = (id: string, patch: Partial<Turn>) => answerMessage(id, { status: 'complete', ...patch });

function conversation(id: string, title: string, messages: ChatMessage[]): Conversation {
  return { id, title, createdAt: 0, updatedAt: 0, messages };
}

const user = (id: string, text: string): ChatMessage => ({ id, role: 'user', text, createdAt: 0 });

function library() {
  const list = [
    conversation('c1', 'Paris trip', [
      user('m1', 'Where should we eat?'),
      answer('m2', { text: 'Try the **Café de Flore**, a classic.' }),
    ]),
    conversation('c2', 'Weather', [
      user('m3', 'Weather in Oslo?'),
      answer('m4', {
        reasoning: 'The user wants the forecast; call the tool.',
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      }),
      {
        id: 'm5',
        role: 'tool',
        toolCallId: 'call_1',
        name: 'get_weather',
        content: '{"temp":-3,"sky":"snow"}',
        createdAt: 0,
      },
    ]),
    conversation('c3', '日本語の会話', [user('m6', '東京タワーの高さは？')]),
    conversation('c4', 'Refused', [answer('m7', { refusal: 'I cannot help with lockpicking.' })]),
  ];
  return {
    conversations: Object.fromEntries(list.map((c) => [c.id, c])),
    order: list.map((c) => c.id),
  };
}

describe('createConversationSearch', () => {
  it.each([
    ['cafe', ['c1'], 'answer', 'Try the Café de Flore, a classic.', ['Café']],
    ['where should', ['c1'], 'user', 'Where should we eat?', ['Where should']],
    ['forecast', ['c2'], 'reasoning', 'The user wants the forecast; call the tool.', ['forecast']],
    ['"city":"oslo"', ['c2'], 'tool call', 'get_weather {"city":"Oslo"}', ['"city":"Oslo"']],
    ['snow', ['c2'], 'tool result', '{"temp":-3,"sky":"snow"}', ['snow']],
    ['タワー', ['c3'], 'user', '東京タワーの高さは？', ['タワー']],
    ['lockpicking', ['c4'], 'refusal', 'I cannot help with lockpicking.', ['lockpicking']],
    ['**', [], null, null, []],
  ])('%j finds %j in its %s', (query, ids, kind, text, marks) => {
    const { conversations, order } = library();
    const { total, results } = createConversationSearch().search(conversations, order, query);
    expect(results.map((r) => r.id)).toEqual(ids);
    expect(total).toBe(ids.length);
    const first = results[0];
    expect(first?.snippet?.kind ?? null).toBe(kind);
    expect(first?.snippet?.text ?? null).toBe(text);
    expect(first?.snippet ? marked(first.snippet.text, first.snippet.ranges) : []).toEqual(marks);
  });

  it('matches titles, highlighting them, with no snippet when only the title matches', () => {
    const { conversations, order } = library();
    const [result] = createConversationSearch().search(conversations, order, '  PARIS ').results;
    expect(result).toEqual({ id: 'c1', title: { text: 'Paris trip', ranges: [[0, 5]] }, snippet: null });
    const [japanese] = createConversationSearch().search(conversations, order, '会話').results;
    expect(marked(japanese!.title.text, japanese!.title.ranges)).toEqual(['会話']);
  });

  it('prepares its index a slice at a time: at least one conversation a call, all once the time allows', () => {
    const { conversations, order } = library();
    const search = createConversationSearch();
    const past = Number.NEGATIVE_INFINITY;
    const calls = [];
    do calls.push(search.prepare(conversations, order, past));
    while (!calls.at(-1) && calls.length < 10);
    // One conversation a call with no time left, then the call that finds nothing more to index.
    expect(calls).toEqual([...order.slice(1).map(() => false), true]);
    expect(search.prepare(conversations, order, past)).toBe(true);
    expect(createConversationSearch().prepare(conversations, order, Number.POSITIVE_INFINITY)).toBe(true);
  });

  it('matches a query a slice at a time too, once per query', () => {
    const { conversations, order } = library();
    const search = createConversationSearch();
    search.prepare(conversations, order, Number.POSITIVE_INFINITY);
    const past = Number.NEGATIVE_INFINITY;
    const calls = [];
    do calls.push(search.prepare(conversations, order, past, ' Paris'));
    while (!calls.at(-1) && calls.length < 10);
    // Indexed already: one conversation matched a call with no time left.
    expect(calls).toEqual([...order.slice(1).map(() => false), true]);
    expect(search.prepare(conversations, order, past, 'paris')).toBe(true);
    expect(search.search(conversations, order, 'paris')).toEqual(
      createConversationSearch().search(conversations, order, 'paris'),
    );
  });

  it('matches nothing for an empty or blank query', () => {
    const { conversations, order } = library();
    const search = createConversationSearch();
    expect(search.search(conversations, order, '')).toEqual({ total: 0, results: [] });
    expect(search.search(conversations, order, '   ')).toEqual({ total: 0, results: [] });
  });

  it('searches the current attempt only', () => {
    const message = answer('m1', { text: 'old words' });
    const retried: AssistantMessage = {
      ...message,
      attempts: [
        ...message.attempts,
        { ...message.attempts[0]!, id: 'a2', turn: turn({ text: 'new words' }) },
      ],
    };
    const conversations = { c: conversation('c', 'T', [retried]) };
    const search = createConversationSearch();
    expect(search.search(conversations, ['c'], 'old').total).toBe(0);
    expect(search.search(conversations, ['c'], 'new').total).toBe(1);
  });

  it('keeps the sidebar order and counts past the limit', () => {
    const conversations = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `c${i}`,
        conversation(`c${i}`, `Chat ${i}`, [user(`m${i}`, 'same words')]),
      ]),
    );
    const order = Object.keys(conversations).reverse();
    const { total, results } = createConversationSearch().search(conversations, order, 'same', 50);
    expect(total).toBe(120);
    expect(results.map((r) => r.id)).toEqual(order.slice(0, 50));
  });

  it('builds each index once per conversation object, and refolds only the message that changed', () => {
    const { conversations, order } = library();
    const search = createConversationSearch();
    const before = Object.fromEntries(order.map((id) => [id, search.indexOf(conversations[id]!)]));
    for (const id of order) expect(search.indexOf(conversations[id]!)).toBe(before[id]);

    // One answer streams a frame: the store replaces that answer, its conversation and nothing else.
    const c2 = conversations.c2!;
    const streamed = c2.messages.map((m) =>
      m.id === 'm4' && m.role === 'assistant'
        ? { ...m, attempts: m.attempts.map((a) => ({ ...a, turn: { ...a.turn, text: 'Snowing in Oslo' } })) }
        : m,
    );
    const next: Record<string, Conversation> = { ...conversations, c2: { ...c2, messages: streamed } };
    const after = search.indexOf(next.c2!);
    expect(after).not.toBe(before.c2);
    for (const id of ['c1', 'c3', 'c4']) expect(search.indexOf(next[id]!)).toBe(before[id]);
    // The unchanged messages' fields are the very same objects: only the streamed answer was folded again.
    const fieldsBefore = before.c2!.fields;
    expect(after.fields[0]).toBe(fieldsBefore[0]); // the user message
    expect(after.fields.at(-1)).toBe(fieldsBefore.at(-1)); // the tool result
    expect(after.fields.map((f) => f.kind)).toEqual([
      'user',
      'reasoning',
      'answer',
      'tool call',
      'tool result',
    ]);
  });

  it('reuses the results of unchanged conversations for the same query', () => {
    const { conversations, order } = library();
    const search = createConversationSearch();
    const first = search.search(conversations, order, 'o');
    const again = search.search({ ...conversations }, order, 'o');
    expect(again.results).toHaveLength(first.results.length);
    for (const [i, result] of again.results.entries()) expect(result).toBe(first.results[i]);
    // A changed conversation gets a new result; the others keep theirs.
    const c1 = { ...conversations.c1!, title: 'Paris trip, again' };
    const third = search.search({ ...conversations, c1 }, order, 'o');
    expect(third.results[0]).not.toBe(first.results[0]);
    expect(third.results.slice(1)).toEqual(first.results.slice(1));
    for (const [i, result] of third.results.entries()) if (i > 0) expect(result).toBe(first.results[i]);
  });

  it('stays fast over many conversations while one of them streams: a frame costs far less than indexing', () => {
    const text = markdownToPlain(
      '## Answer\n\nSome **markdown** text with a table | a | b |, words and more words. ',
    );
    const many = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [
        `c${i}`,
        conversation(`c${i}`, `Conversation ${i}`, [
          user(`u${i}`, `Question ${i} about café culture`),
          answer(`a${i}`, { text: text.repeat(20) }),
        ]),
      ]),
    );
    const order = Object.keys(many);
    const search = createConversationSearch();
    let started = performance.now();
    expect(search.search(many, order, 'culture').total).toBe(2000); // builds every index once
    const indexing = performance.now() - started;

    started = performance.now();
    let current = many;
    for (let frame = 0; frame < 20; frame++) {
      const c0 = current.c0!;
      current = { ...current, c0: { ...c0, title: `Conversation 0 · frame ${frame}` } };
      expect(search.search(current, order, 'culture').total).toBe(2000);
    }
    // Twenty frames over 2,000 conversations: only the changed one is indexed and searched again per frame
    // (a rebuild of everything per frame would cost twenty times the indexing).
    expect(performance.now() - started).toBeLessThan(indexing);
  });
});

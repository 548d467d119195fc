import type { ConversationRecord } from '../server/db/conversations.ts';
import type { Person } from '../server/db/storage.ts';

// A person's conversations as their devices would have stored them on the team server, written through the
// server's own storage (`server/db`): `npm run bench:db` and `npm run bench:ui`'s `team-list` case.

/** The word every hundredth conversation mentions: a search that finds 1 %. */
export const RARE_WORD = 'zanzibar';

const words = (
  'the of and to in is that for it as with was on be by this are or from at which an have not they but all ' +
  'stream token model answer request server protocol reasoning cache latency gateway branch message attempt ' +
  'table query index page search budget deploy proxy header cookie session secret upload device offline merge'
).split(' ');

/** A deterministic generator, so every run (and both engines) store the same conversations. */
export function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(next: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(words[Math.floor(next() * words.length)] ?? 'the');
  return out.join(' ');
}

/**
 * Conversation `index`: three exchanges of `answerWords` words an answer (220: about 1.3 kB; 850: about
 * 5 kB), the newer the higher the index; every hundredth mentions `RARE_WORD`.
 */
export function conversationRecord(index: number, next: () => number, answerWords = 220): ConversationRecord {
  const id = `c_${index.toString(16).padStart(8, '0')}`;
  const messages: unknown[] = [];
  let parentId: string | null = null;
  for (let turn = 0; turn < 3; turn++) {
    const userId = `${id}_u${turn}`;
    const answerId = `${id}_a${turn}`;
    const marker = index % 100 === 0 && turn === 1 ? ` ${RARE_WORD}` : '';
    messages.push({
      id: userId,
      role: 'user',
      text: sentence(next, 25) + marker,
      createdAt: index,
      parentId,
    });
    messages.push({
      id: answerId,
      role: 'assistant',
      protocol: 'chat',
      model: 'gpt-bench',
      source: { kind: 'gateway' },
      createdAt: index,
      parentId: userId,
      attempts: [
        {
          id: `${answerId}_t`,
          startedAt: index,
          request: { url: '/v1/chat/completions', path: '/v1/chat/completions', headers: {} },
          sentHeaders: {},
          turn: { status: 'complete', text: sentence(next, answerWords), usage: null },
          httpError: null,
          trace: { headersAt: 80, firstOutputAt: 300, endedAt: 2000, bytes: 9000, outputEvents: 220 },
        },
      ],
    });
    parentId = answerId;
  }
  return {
    id,
    title: sentence(next, 5),
    createdAt: 1_700_000_000_000 + index * 60_000,
    updatedAt: 1_700_000_000_000 + index * 60_000,
    messages,
  };
}

/** Stores `count` conversations for `person` (from `seed`, deterministic); resolves with the ms it took. */
export async function seedConversations(
  person: Person,
  count: number,
  seed: number,
  answerWords?: number,
): Promise<number> {
  const next = random(seed);
  const started = performance.now();
  for (let i = 0; i < count; i++) await person.conversations.put(conversationRecord(i, next, answerWords), 0);
  return performance.now() - started;
}

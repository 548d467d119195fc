/**
 * The UI benchmark's answers, deterministic (a fixed seed): the long one is about 100,000 characters of
 * prose, a table and a 2,000-line TypeScript block, cut into deltas the size of a model's tokens.
 */

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'stream delta token frame render layout parse block fence table answer model gateway latency budget worker chunk paint browser reader protocol keepalive'.split(
    ' ',
  );

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const word = WORDS[Math.floor(next() * WORDS.length)]!;
    const r = next();
    out.push(r < 0.06 ? `**${word}**` : r < 0.1 ? `\`${word}\`` : word);
  }
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function paragraph(next: () => number): string {
  return Array.from({ length: 4 + Math.floor(next() * 4) }, () =>
    sentence(next, 8 + Math.floor(next() * 10)),
  ).join(' ');
}

function codeLine(i: number, next: () => number): string {
  switch (i % 10) {
    case 0:
      return `export function handler${i}(input: string, limit = ${i}): number {`;
    case 1:
      return `  const parts = input.split(',').map((part) => part.trim()); // split ${i}`;
    case 2:
      return `  if (parts.length > limit) throw new Error(\`too many parts: \${parts.length}\`);`;
    case 3:
      return `  let total = ${Math.floor(next() * 1000)};`;
    case 4:
      return '  for (const part of parts) {';
    case 5:
      return `    total += Number.parseInt(part, 10) * ${1 + Math.floor(next() * 9)};`;
    case 6:
      return '  }';
    case 7:
      return `  /* the result, rounded: ${WORDS[i % WORDS.length]} */`;
    case 8:
      return '  return Math.round(total / parts.length);';
    default:
      return '}';
  }
}

/** About 100,000 characters: prose, a table, a 2,000-line TypeScript block, more prose and a list. */
export function longAnswer(): string {
  const next = random(0x5eed);
  const parts: string[] = ['# A long answer', ''];
  for (let i = 0; i < 12; i++) parts.push(paragraph(next), '');
  parts.push('| # | Name | Value | Note |', '|---:|------|------:|------|');
  for (let i = 0; i < 40; i++)
    parts.push(
      `| ${i + 1} | ${WORDS[i % WORDS.length]} | ${Math.floor(next() * 10_000)} | ${sentence(next, 4)} |`,
    );
  parts.push('', 'The code:', '', '```ts');
  for (let i = 0; i < 2_000; i++) parts.push(codeLine(i, next));
  parts.push('```', '');
  for (let i = 0; i < 10; i++) parts.push(paragraph(next), '');
  for (let i = 0; i < 20; i++) parts.push(`- ${sentence(next, 10)}`);
  parts.push('', 'THE-END-MARKER');
  return parts.join('\n');
}

/** A finished answer of about 5,000 characters: the 50-answer conversation is made of these. */
export function mediumAnswer(n: number): string {
  const next = random(n + 1);
  const parts: string[] = [`## Answer ${n}`, ''];
  for (let i = 0; i < 5; i++) parts.push(paragraph(next), '');
  parts.push('| Key | Value |', '|-----|------:|');
  for (let i = 0; i < 6; i++)
    parts.push(`| ${WORDS[(i + n) % WORDS.length]} | ${Math.floor(next() * 1000)} |`);
  parts.push('', '```ts');
  for (let i = 0; i < 30; i++) parts.push(codeLine(i, next));
  parts.push('```', '', paragraph(next), '', `END-OF-ANSWER-${n}`);
  return parts.join('\n');
}

/** Hostile inputs (issue #11): each must render without a long task. */
export const hostile: Record<string, () => string> = {
  'quotes-5000': () => `${'>'.repeat(5_000)} deep quote\n\nHOSTILE-END`,
  'list-500': () =>
    `${Array.from({ length: 500 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n')}\n\nHOSTILE-END`,
  'code-100k': () => {
    const next = random(7);
    const lines = Array.from({ length: 2_600 }, (_, i) => codeLine(i, next));
    return `\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n\nHOSTILE-END`;
  },
};

/** `text` cut into deltas of 2–6 words' worth (about 12 characters), as a model sends tokens. */
export function deltas(text: string): string[] {
  const next = random(42);
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = 6 + Math.floor(next() * 14);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

/** The simulated model's texts: built from the user's message so every answer is worth rendering. */

/** The user's message on one line, shortened for quoting. */
export function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}'’-]+/gu) ?? [];
}

function headline(text: string): string {
  const first = words(text).slice(0, 6).join(' ');
  return first ? first.charAt(0).toUpperCase() + first.slice(1) : 'Hello from the HopBase simulator';
}

/** A code fence longer than any backtick run inside `body`, so quoted text cannot close it. */
function fence(body: string): string {
  const longest = Math.max(2, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
}

/** Markdown with a heading, a list, a table and a fenced code block. */
export function demoAnswer(userText: string): string {
  const all = words(userText);
  const distinct = [...new Set(all.map((w) => w.toLowerCase()))].slice(0, 5);
  const rows = distinct.length > 0 ? distinct : ['hello'];
  const literal = JSON.stringify(oneLine(userText, 200) || 'hello').replace(/`/g, '\\u0060');
  return [
    `## ${headline(userText)}`,
    '',
    `You wrote: *${oneLine(userText) || '(nothing)'}*. Here is a short, structured reply so every kind of markdown shows up.`,
    '',
    `- **Words:** ${all.length}`,
    `- **Characters:** ${userText.length}`,
    `- **Longest word:** \`${all.reduce((a, b) => (b.length > a.length ? b : a), '') || '-'}\``,
    '',
    '| # | Word | Letters |',
    '|---|------|---------|',
    ...rows.map((w, i) => `| ${i + 1} | ${w} | ${w.length} |`),
    '',
    '```ts',
    `const message = ${literal};`,
    'const words = message.split(/\\s+/).filter(Boolean);',
    "console.log(words.length, 'words');",
    '```',
    '',
    'This answer was streamed by the **HopBase simulator**.',
  ].join('\n');
}

/** Asked for a formula (the word in the message): an answer with formulas, for rendering math. */
function asksForFormulas(userText: string): boolean {
  return /\bformulas?\b/i.test(userText);
}

/** Formulas in all four notations, prices that must stay text, and TeX that cannot be read. */
function mathAnswer(userText: string): string {
  return [
    `## Formulas for *${oneLine(userText, 60)}*`,
    '',
    'Mass and energy: $E = mc^2$. For small angles, \\(\\sin\\theta \\approx \\theta\\).',
    '',
    'The Gaussian integral:',
    '',
    '$$',
    '\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}',
    '$$',
    '',
    'And the roots of $ax^2 + bx + c = 0$:',
    '',
    '\\[ x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a} \\]',
    '',
    'Prices stay prices: the book costs $5 and the course $10, between $3 and $4 million in all.',
    '',
    'TeX that cannot be read shows as written: $\\frac{1}{2$.',
  ].join('\n');
}

/** Asked for steps (the word in the message): an answer made of lists, for rendering them. */
function asksForSteps(userText: string): boolean {
  return /\bsteps?\b/i.test(userText);
}

/** A loose numbered list (blank lines between items) with nested lists and code, then a task list. */
function stepsAnswer(userText: string): string {
  return [
    `## Steps for *${oneLine(userText, 60)}*`,
    '',
    'Follow these in order:',
    '',
    '1. **Install** the tools.',
    '',
    '   Both are needed:',
    '   - Node 20',
    '   - PostgreSQL',
    '',
    '2. **Configure** the gateway:',
    '',
    '   ```sh',
    '   export HOPBASE_URL=https://gateway.example.com',
    '   ```',
    '',
    '3. **Run** the app and open it.',
    '',
    '4. **Check** that an answer streams.',
    '',
    'Before you ship:',
    '',
    '- [x] Tests pass',
    '- [ ] Screenshots taken',
    '- [ ] Notes written',
  ].join('\n');
}

/** What `sim-echo` says: formulas or steps when asked for them, else the markdown demo. */
export function echoAnswer(userText: string): string {
  if (asksForFormulas(userText)) return mathAnswer(userText);
  return asksForSteps(userText) ? stepsAnswer(userText) : demoAnswer(userText);
}

const LONG_TOPICS = [
  'Context',
  'Constraints',
  'Options',
  'Trade-offs',
  'Plan',
  'Risks',
  'Measurements',
  'Rollout',
  'Operations',
  'Follow-ups',
];

/** A few thousand tokens of structured text, for scrolling and rendering under a long stream. */
export function longAnswer(userText: string): string {
  const topic = oneLine(userText, 60) || 'your question';
  const sections = Array.from({ length: 24 }, (_, i) => {
    const name = LONG_TOPICS[i % LONG_TOPICS.length];
    const part = [
      `### ${i + 1}. ${name}`,
      '',
      `Looking at *${topic}* from the angle of ${name?.toLowerCase()}, the first thing to settle is what success looks like and how it will be measured. ` +
        'A useful answer names the assumptions, shows the smallest version that works, and leaves room to grow without rewriting everything later. ' +
        `Each of these points is small on its own, but together they decide whether step ${i + 1} holds up in practice.`,
      '',
      `- Write down the assumption behind step ${i + 1} and who can confirm it.`,
      '- Pick one number that tells you whether it worked.',
      '- Keep the change small enough to undo in a minute.',
      '',
    ];
    if (i % 4 === 1) {
      part.push(
        '| Option | Effort | Risk |',
        '|--------|--------|------|',
        '| Small | low | low |',
        '| Full | high | medium |',
        '',
      );
    }
    if (i % 4 === 3) {
      part.push(
        '```ts',
        `export function step${i + 1}(input: string): string {`,
        '  return input.trim();',
        '}',
        '```',
        '',
      );
    }
    return part.join('\n');
  });
  return [`## A long answer about ${topic}`, '', ...sections, 'That is the whole plan, end to end.'].join(
    '\n',
  );
}

/**
 * Thinking shown before the answer by the reasoning model: more of it at a higher effort (`low` is the
 * first paragraph, `medium` the usual two, `high` adds a check).
 */
export function reasoningText(
  userText: string,
  toolResult: boolean,
  effort: 'low' | 'medium' | 'high',
): string {
  const paragraphs = toolResult
    ? [
        '**Reading the tool result**\n\nThe tool has answered.',
        '**Writing the answer**\n\nI will quote what it returned and explain it in one or two sentences.',
        '**Checking the result**\n\nThe values look plausible for the question, so no second call is needed.',
      ]
    : [
        `**Understanding the request**\n\nThe user wrote "${oneLine(userText, 60)}". I should restate it and give a structured reply.`,
        '**Planning the answer**\n\nA heading, a short list, a table of the words and a small code block will show every kind of formatting.',
        '**Checking the plan**\n\nEvery part of the request is covered, the formatting stays readable on a phone, and nothing needs a caveat.',
      ];
  const count = { low: 1, medium: 2, high: 3 }[effort];
  return paragraphs.slice(0, count).join('\n\n');
}

export function toolPreamble(toolName: string): string {
  return `Let me call \`${toolName}\` for that.`;
}

export interface QuotedToolResult {
  name: string;
  content: string;
}

/** The final answer after tools ran: quotes each result verbatim. */
export function toolResultAnswer(results: readonly QuotedToolResult[]): string {
  const parts = results.map(({ name, content }) => {
    const f = fence(content);
    return [`\`${name}\` returned:`, '', `${f}`, content, f].join('\n');
  });
  return [
    '## Tool result',
    '',
    ...parts.flatMap((p) => [p, '']),
    `Based on ${results.length === 1 ? 'this result' : 'these results'}, the answer is: ${oneLine(results.map((r) => r.content).join('; '), 120)}`,
  ].join('\n');
}

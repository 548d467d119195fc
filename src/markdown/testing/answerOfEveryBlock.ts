const rows = Array.from({ length: 20 }, (_, i) => `| ${i} | row ${i} |`).join('\n');

/**
 * A finished answer with a block of each kind the renderer parses its own way: a heading, prose, a table of
 * three groups of rows, a tight list, fenced code (never parsed) and a loose list.
 */
export const answerOfEveryBlock = [
  '## A heading',
  'Some *prose* with `code` and a link: https://example.com.',
  `| n | name |\n|---|---|\n${rows}`,
  '- one\n- two\n- three',
  '```js\nconst fenced = "never parsed";\n```',
  '1. first\n\n2. second, loose',
].join('\n\n');

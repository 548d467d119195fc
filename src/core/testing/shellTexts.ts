/** Texts a shell would change if any of it reached the shell unquoted: what a snippet's quoting must survive. */
export const shellTexts = [
  `She said "hi" and 'bye'`,
  'line one\nline two\r\n\ttabbed',
  'naïve café — 日本語 😀 \u2028 \u0000 \u001b[31m',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell's ${…}, written for the shell to leave alone
  '$HOME ${PATH} $(echo pwned) `id` \\ \\n !! ~ * ?',
  "JSON\nJSON_\n'JSON'\nEOF",
  '<<EOF\nEOF',
];

import { expect, it } from 'vitest';
import { fillTemplate } from './resultTemplate.ts';

it.each([
  ['Sunny in {{city}}', '{"city":"Paris"}', 'Sunny in Paris'],
  ['{"temp": 21, "at": {{ city }}}', '{"city":"Paris"}', '{"temp": 21, "at": Paris}'],
  ['{{days}} days, {{unit}}', '{"days":[1,2]}', '[1,2] days, '],
  ['plain', 'not json', 'plain'],
])('%s with %s → %s', (template, args, result) => {
  expect(fillTemplate(template, args)).toBe(result);
});

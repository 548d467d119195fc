import { describe, expect, it } from 'vitest';
import { schemaChecker } from '../../core/index.ts';
import { emptyToolDraft, readToolDraft } from './toolForm.ts';

const checker = await schemaChecker();
const draft = (patch: object) => ({ ...emptyToolDraft, name: 'get_weather', ...patch });

describe('readToolDraft', () => {
  it.each([
    [{ name: '' }, 'missing', null],
    [{ name: 'get weather' }, 'pattern', null],
    [{ name: 'taken' }, 'taken', null],
    [{ parameters: '{' }, null, { kind: 'json', place: { line: 1, column: 2 } }],
    [{ name: ' ', parameters: '"x"' }, 'missing', { kind: 'notObject' }],
  ])('%j: name %s, schema %j', (patch, name, schema) => {
    expect(readToolDraft(draft(patch), checker, ['taken'])).toEqual({ ok: false, name, schema });
  });

  it('makes the tool, trimmed, without empty description or template', () => {
    expect(readToolDraft(draft({ name: ' get_weather ', description: ' ' }), checker, [])).toEqual({
      ok: true,
      tool: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
    });
    expect(
      readToolDraft(draft({ description: 'Weather.', resultTemplate: 'Sunny in {{city}}' }), checker, []),
    ).toMatchObject({ ok: true, tool: { description: 'Weather.', resultTemplate: 'Sunny in {{city}}' } });
  });
});

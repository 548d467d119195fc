import type { SchemaChecker, SchemaProblem } from '../../core/index.ts';
import type { SavedTool } from '../../state/domain/types.ts';

/** The "Add tool" form as typed. */
export interface ToolDraft {
  name: string;
  description: string;
  parameters: string;
  resultTemplate: string;
}

export const emptyToolDraft: ToolDraft = {
  name: '',
  description: '',
  parameters: '{\n  "type": "object",\n  "properties": {}\n}',
  resultTemplate: '',
};

export type NameProblem = 'missing' | 'pattern' | 'taken';

export type ReadTool =
  | { ok: true; tool: SavedTool }
  | { ok: false; name: NameProblem | null; schema: SchemaProblem | null };

/** What all three protocols take as a tool's name. */
const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** The tool a draft makes, or what is wrong with it: its name (`taken`: already one of `names`) and its schema. */
export function readToolDraft(draft: ToolDraft, checker: SchemaChecker, names: readonly string[]): ReadTool {
  const name = draft.name.trim();
  const nameProblem: NameProblem | null =
    name === '' ? 'missing' : !namePattern.test(name) ? 'pattern' : names.includes(name) ? 'taken' : null;
  const schema = checker.readSchema(draft.parameters);
  if (nameProblem || !schema.ok)
    return { ok: false, name: nameProblem, schema: schema.ok ? null : schema.problem };
  const description = draft.description.trim();
  return {
    ok: true,
    tool: {
      name,
      ...(description && { description }),
      parameters: schema.schema,
      ...(draft.resultTemplate.trim() && { resultTemplate: draft.resultTemplate }),
    },
  };
}

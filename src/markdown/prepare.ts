import { blockPlan, parsedWhole } from './blockPlan.ts';
import { scanMarkdownBlocks } from './blocks.ts';
import { fencedCode } from './fence.ts';
import { listParts } from './list.ts';
import { hasFormulas } from './mathSyntax.ts';
import type { MarkdownProcessor } from './processor.ts';
import { tableTree } from './table.ts';

/**
 * Parses a finished answer the way its first render will (`components/markdown/Markdown.tsx`: whole, or
 * block by block, tables in groups of rows, lists item by item), each parse kept by `processor.prepare`
 * for that render to take. One step per block, so that a caller can spread them over short tasks.
 * An answer with formulas is left alone: its render waits for KaTeX and parses with it.
 */
export function* prepareAnswer(text: string, processor: MarkdownProcessor): Generator<void, void, void> {
  if (hasFormulas(text)) return;
  const parse = (source: string) => processor.prepare(source);
  if (parsedWhole(text)) {
    parse(text);
    return;
  }
  const scan = scanMarkdownBlocks(text);
  for (const source of scan.tail === '' ? scan.closed : [...scan.closed, scan.tail]) {
    if (fencedCode(source)) continue;
    const plan = blockPlan(source);
    switch (plan.kind) {
      case 'table':
        if (!tableTree(plan.table, parse, new Map())) parse(source);
        break;
      case 'list':
        if (!listParts(plan.list, parse, new Map())) parse(source);
        break;
      case 'too-deep':
        if (plan.at > 0) parse(source.slice(0, plan.at));
        break;
      case 'prose':
        parse(source);
    }
    yield;
  }
}

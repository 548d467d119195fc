import { type CostSum, costCertainty } from '../../core/index.ts';
import type { UsageFigures, UsageReport } from '../domain/usageReport.ts';

/**
 * The usage report as CSV (RFC 4180, CRLF lines): the words in the person's language, the numbers plain
 * (`1234`, `0.0123`: no grouping, a point for decimals) so a spreadsheet reads them as numbers in any locale.
 */

export interface UsageCsvWords {
  /** The headings: the grouping's (Day, Model, Protocol), then the figures'. */
  key: string;
  inputTokens: string;
  cachedTokens: string;
  outputTokens: string;
  reasoningTokens: string;
  cost: string;
  note: string;
  /** The last row's name. */
  total: string;
  /** The note of a cost nothing has a price for (its cell is left empty, never 0). */
  unknown: string;
  /** The note of a cost some attempts have no price or usage for (its cell is then a floor). */
  partial: string;
  /** A row's name as shown (a protocol's label); days and models as they are. */
  name(key: string): string;
}

/** A text cell: quoted when it holds a separator, a quote or a line break; a formula's first sign made text. */
export function csvText(value: string): string {
  // A spreadsheet would run a cell starting with = + - @ (a model name comes from the gateway).
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Dollars written plainly, to a millionth of a cent; no exponent however small. */
export function csvDollars(dollars: number): string {
  return dollars.toFixed(8).replace(/\.?0+$/, '');
}

function costCells(cost: CostSum, words: UsageCsvWords): [string, string] {
  switch (costCertainty(cost)) {
    case 'unknown':
      return ['', csvText(words.unknown)];
    case 'partial':
      return [csvDollars(cost.dollars), csvText(words.partial)];
    case 'exact':
      return [csvDollars(cost.dollars), ''];
    case 'none':
      return ['', ''];
  }
}

function line(name: string, figures: UsageFigures, words: UsageCsvWords): string {
  return [
    csvText(name),
    String(figures.inputTokens),
    String(figures.cachedTokens),
    String(figures.outputTokens),
    String(figures.reasoningTokens),
    ...costCells(figures.cost, words),
  ].join(',');
}

export function usageCsv(report: UsageReport, words: UsageCsvWords): string {
  const head = [
    words.key,
    words.inputTokens,
    words.cachedTokens,
    words.outputTokens,
    words.reasoningTokens,
    words.cost,
    words.note,
  ]
    .map(csvText)
    .join(',');
  const rows = report.rows.map((row) => line(words.name(row.key), row, words));
  return `${[head, ...rows, line(words.total, report.total, words)].join('\r\n')}\r\n`;
}

import { describe, expect, it } from 'vitest';
import { type CostSum, noCost } from '../../core/index.ts';
import type { UsageFigures, UsageReport } from '../domain/usageReport.ts';
import { csvDollars, csvText, type UsageCsvWords, usageCsv } from './usageCsv.ts';

describe('csvText: one cell', () => {
  it.each([
    ['plain', 'plain'],
    ['with, comma', '"with, comma"'],
    ['a "quote"', '"a ""quote"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-x', "'-x"],
    ['@x', "'@x"],
    ['=a,"b"', `"'=a,""b"""`],
    ['', ''],
  ])('%j → %s', (value, cell) => {
    expect(csvText(value)).toBe(cell);
  });
});

describe('csvDollars: plain, never an exponent', () => {
  it.each([
    [0.0123, '0.0123'],
    [1.5, '1.5'],
    [12, '12'],
    [1e-7, '0.0000001'],
    [0.1 + 0.2, '0.3'],
    [1234.56789, '1234.56789'],
  ])('%d → %s', (n, text) => {
    expect(csvDollars(n)).toBe(text);
  });
});

const words: UsageCsvWords = {
  key: 'Modelo',
  inputTokens: 'Entrada',
  cachedTokens: 'En caché',
  outputTokens: 'Salida',
  reasoningTokens: 'Razonamiento',
  cost: 'Coste (USD)',
  note: 'Nota',
  total: 'Total',
  unknown: 'precio desconocido',
  partial: 'al menos, sin precio para algunos intentos',
  name: (key) => key.toUpperCase(),
};
const cost = (more: Partial<CostSum>): CostSum => ({ ...noCost, attempts: 1, ...more });
const figures = (input: number, c: CostSum): UsageFigures => ({
  inputTokens: input,
  cachedTokens: 2,
  outputTokens: 3000,
  reasoningTokens: 4,
  cost: c,
});

describe('usageCsv', () => {
  it('a heading, a line per row, the total; numbers plain, a price nobody knows left empty', () => {
    const report: UsageReport = {
      grouping: 'model',
      rows: [
        { key: 'a,b', ...figures(12345, cost({ dollars: 0.0123, known: 1 })) },
        { key: 'c', ...figures(1, cost({ unpriced: 1 })) },
        { key: 'd', ...figures(0, cost({})) },
      ],
      total: figures(12346, cost({ dollars: 0.0123, known: 1, unpriced: 1, attempts: 3 })),
    };
    expect(usageCsv(report, words).split('\r\n')).toEqual([
      'Modelo,Entrada,En caché,Salida,Razonamiento,Coste (USD),Nota',
      '"A,B",12345,2,3000,4,0.0123,',
      'C,1,2,3000,4,,precio desconocido',
      'D,0,2,3000,4,,',
      'Total,12346,2,3000,4,0.0123,"al menos, sin precio para algunos intentos"',
      '',
    ]);
  });
});

import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { breakdownTokens, expectedDollars, shownUsage, usd } from './costs.ts';
import {
  artifactsDir,
  choose,
  inContext,
  newTurn,
  openApp,
  type ProtocolKey,
  protocolLabels,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

// The usage page: what the answers' usage lines say, summed per model and per protocol, in its table, its
// chart and its CSV alike.

interface Figures {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
  dollars: number;
  /** Answers with a price, and without. */
  priced: number;
  unpriced: number;
}

const none: Figures = { input: 0, cached: 0, output: 0, reasoning: 0, dollars: 0, priced: 0, unpriced: 0 };

function plus(a: Figures, b: Figures): Figures {
  return {
    input: a.input + b.input,
    cached: a.cached + b.cached,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    dollars: a.dollars + b.dollars,
    priced: a.priced + b.priced,
    unpriced: a.unpriced + b.unpriced,
  };
}

/** An answer of `model` on `protocol`, as its usage line shows it, priced by the table apart. */
async function answer(page: Page, protocol: ProtocolKey, model: string): Promise<Figures> {
  await choose(page, protocol, model);
  const turn = await waitForAnswer(await send(page, uniqueText(`usage ${protocol} ${model}`)));
  const shown = await shownUsage(turn);
  const priced = model !== 'sim-unpriced';
  return {
    input: shown.input,
    cached: shown.cached,
    output: shown.output,
    reasoning: shown.reasoning,
    dollars: priced ? expectedDollars(model, await breakdownTokens(turn)) : 0,
    priced: priced ? 1 : 0,
    unpriced: priced ? 0 : 1,
  };
}

const count = (text: string) => Number(text.replace(/,/g, ''));

/** The table's rows (the total last) as their cells read. */
async function tableRows(table: Locator): Promise<string[][]> {
  return table
    .locator('tbody tr, tfoot tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? '')),
    );
}

const asCells = (name: string, f: Figures) => [
  name,
  f.input.toLocaleString('en'),
  f.cached.toLocaleString('en'),
  f.output.toLocaleString('en'),
  f.reasoning.toLocaleString('en'),
  // Never $0 for a model with no price; a sum with some unpriced is a floor.
  f.priced === 0 ? 'price unknown' : `${f.unpriced > 0 ? 'at least ' : ''}${usd(f.dollars)}`,
];

async function openUsage(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Usage and cost' }).click();
  const dialog = page.getByRole('dialog', { name: 'Usage and cost' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the table, the chart and the CSV hold what the usage lines say, per model and per protocol', async ({
  page,
}) => {
  await openApp(page);
  const answers: [ProtocolKey, string, Figures][] = [];
  for (const [protocol, model] of [
    ['chat', 'sim-echo'],
    ['responses', 'sim-reasoning'],
    ['responses', 'sim-echo'],
    ['chat', 'sim-unpriced'],
  ] as const) {
    answers.push([protocol, model, await answer(page, protocol, model)]);
  }
  const sum = (keep: (a: (typeof answers)[number]) => boolean) =>
    answers.filter(keep).reduce((total, [, , f]) => plus(total, f), none);
  const total = sum(() => true);

  const dialog = await openUsage(page);
  const expected = {
    model: [
      asCells(
        'sim-echo',
        sum(([, m]) => m === 'sim-echo'),
      ),
      asCells(
        'sim-reasoning',
        sum(([, m]) => m === 'sim-reasoning'),
      ),
      asCells(
        'sim-unpriced',
        sum(([, m]) => m === 'sim-unpriced'),
      ),
    ],
    protocol: [
      asCells(
        protocolLabels.chat,
        sum(([p]) => p === 'chat'),
      ),
      asCells(
        protocolLabels.responses,
        sum(([p]) => p === 'responses'),
      ),
    ],
  };
  const totalCells = asCells('Total', total);

  for (const grouping of ['model', 'protocol'] as const) {
    await dialog.getByRole('radio', { name: `Per ${grouping}` }).check();
    const table = dialog.getByRole('table', { name: `Usage per ${grouping}` });
    await expect(table.getByRole('columnheader')).toHaveText([
      grouping === 'model' ? 'Model' : 'Protocol',
      'Tokens in',
      'Cached',
      'Tokens out',
      'Reasoning',
      'Cost',
    ]);
    await expect.poll(() => tableRows(table)).toEqual([...expected[grouping], totalCells]);

    // The chart draws the same figures: its bars' names, tokens in and out, and dollars (none unpriced).
    const chart = dialog.getByRole('img', { name: new RegExp(`^Bar chart .* per ${grouping};`) });
    const drawn = JSON.parse((await chart.getAttribute('data-figures')) ?? '{}') as {
      labels: string[];
      input: number[];
      output: number[];
      cost: (number | null)[];
    };
    const rows = expected[grouping];
    expect(drawn.labels).toEqual(rows.map((r) => r[0]));
    expect(drawn.input.map((n) => n.toLocaleString('en'))).toEqual(rows.map((r) => r[1]));
    expect(drawn.output.map((n) => n.toLocaleString('en'))).toEqual(rows.map((r) => r[3]));
    expect(drawn.cost.map((n) => (n === null ? 'price unknown' : usd(n)))).toEqual(
      rows.map((r) => r[5]?.replace('at least ', '')),
    );

    // The CSV: the same rows, numbers written plainly.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^hopbase-usage-per-${grouping}-.+\\.csv$`));
    const lines = readFileSync((await download.path()) ?? '', 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      `${grouping === 'model' ? 'Model' : 'Protocol'},Tokens in,Cached,Tokens out,Reasoning,Cost (USD),Note`,
    );
    const csvRows = lines.slice(1).map((line) => line.split(','));
    expect(
      csvRows.map(([name, input, cached, output, reasoning, dollars, note]) => [
        name,
        count(input ?? '').toLocaleString('en'),
        count(cached ?? '').toLocaleString('en'),
        count(output ?? '').toLocaleString('en'),
        count(reasoning ?? '').toLocaleString('en'),
        note === 'price unknown' ? note : `${note ? 'at least ' : ''}${usd(Number(dollars))}`,
      ]),
    ).toEqual([...rows, totalCells]);
    // Plain numbers: no grouping separators, a point for decimals.
    for (const row of csvRows) expect(row.slice(1, 5).join(',')).toMatch(/^\d+,\d+,\d+,\d+$/);
  }

  // Per day: everything was today, one row and the total.
  await dialog.getByRole('radio', { name: 'Per day' }).check();
  const days = await tableRows(dialog.getByRole('table', { name: 'Usage per day' }));
  expect(days.map((row) => row.slice(1))).toEqual([totalCells.slice(1), totalCells.slice(1)]);

  expect(await violations(page, '.usage-page')).toEqual([]);
  await dialog.getByRole('radio', { name: 'Per model' }).check();
  await dialog.screenshot({ path: `${artifactsDir}/usage-page-desktop-light.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Usage and cost' })).toBeFocused();
});

test('on a phone, in the dark, in Spanish: the page in the person’s words and numbers', async ({
  browser,
}) => {
  await inContext(
    browser,
    { locale: 'es-ES', colorScheme: 'dark', viewport: { width: 390, height: 844 } },
    async (page) => {
      await page.goto('/');
      const box = page.getByRole('textbox', { name: 'Mensaje' });
      await expect(box).toBeVisible();
      for (const model of ['sim-echo', 'sim-reasoning']) {
        await page.getByRole('combobox', { name: 'Modelo' }).selectOption(model);
        const turn = await newTurn(page, async () => {
          await box.fill(uniqueText(`uso ${model}`));
          await box.press('Enter');
        });
        await waitForAnswer(turn);
      }
      await page.getByRole('button', { name: 'Conversaciones' }).click();
      await page.getByRole('button', { name: 'Uso y coste' }).click();
      const dialog = page.getByRole('dialog', { name: 'Uso y coste' });
      await dialog.getByRole('radio', { name: 'Por modelo' }).check();
      const table = dialog.getByRole('table', { name: 'Uso por modelo' });
      await expect(table.getByRole('columnheader').first()).toHaveText('Modelo');
      // Spanish numbers: a comma for decimals, in the dollars.
      await expect(table.locator('tfoot td').last()).toHaveText(/^\d+,\d+\sUS\$$/);
      await expect(dialog.getByRole('img', { name: /^Gráfico de barras/ })).toBeVisible();
      expect(await violations(page, '.usage-page')).toEqual([]);
      await page.screenshot({ path: `${artifactsDir}/usage-page-phone-dark-es.png`, fullPage: false });
    },
  );
});

import { expect, type Page, test } from '@playwright/test';
import {
  artifactsDir,
  choose,
  inContext,
  newTurn,
  openApp,
  type ProtocolKey,
  protocolKeys,
  protocolLabels,
  requestsContaining,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';

/** The body the simulator received with `text`. */
async function bodyWith(page: Page, text: string): Promise<Record<string, unknown>> {
  const [request] = await requestsContaining(page, text);
  expect(request).toBeDefined();
  return request?.body as Record<string, unknown>;
}

const tools = (page: Page) => page.getByRole('dialog', { name: 'Tools' });
const parameters = (page: Page) => page.getByRole('dialog', { name: 'Parameters' });

/** Opens the open chat's Tools dialog through Parameters, as a person would. */
async function openTools(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Parameters', exact: true }).click();
  await parameters(page).getByRole('button', { name: 'Tools…' }).click();
  await expect(tools(page)).toBeVisible();
}

/** Back to Parameters, then closed without changing them. */
async function closeTools(page: Page): Promise<void> {
  await tools(page).getByRole('button', { name: 'Done' }).click();
  await parameters(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(parameters(page)).toHaveCount(0);
}

const stockSchema = '{"type":"object","properties":{"symbol":{"type":"string"}},"required":["symbol"]}';

/** Fills "Add tool" and saves it; `template`: its result template. */
async function addTool(page: Page, name: string, schema: string, template = ''): Promise<void> {
  const dialog = tools(page);
  await dialog.getByRole('button', { name: 'Add tool' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('textbox', { name: 'Description' }).fill('The price of a stock.');
  await dialog.getByRole('textbox', { name: 'Parameters (JSON Schema)' }).fill(schema);
  await dialog.getByRole('textbox', { name: 'Result template (optional)' }).fill(template);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
}

/** A chat on sim-tools offering only `lookup_stock` (the default get_weather removed). */
async function stockChat(page: Page, protocol: ProtocolKey, template = ''): Promise<void> {
  await openApp(page);
  await choose(page, protocol, 'sim-tools');
  await openTools(page);
  await tools(page).getByRole('button', { name: 'Remove get_weather' }).click();
  await addTool(page, 'lookup_stock', stockSchema, template);
  await expect(tools(page).getByRole('listitem').filter({ hasText: 'lookup_stock' })).toBeVisible();
}

const offered: Record<ProtocolKey, { tools: unknown; choice: unknown }> = {
  chat: {
    tools: [
      {
        type: 'function',
        function: {
          name: 'lookup_stock',
          description: 'The price of a stock.',
          parameters: JSON.parse(stockSchema),
        },
      },
    ],
    choice: { type: 'function', function: { name: 'lookup_stock' } },
  },
  responses: {
    tools: [
      {
        type: 'function',
        name: 'lookup_stock',
        description: 'The price of a stock.',
        parameters: JSON.parse(stockSchema),
      },
    ],
    choice: { type: 'function', name: 'lookup_stock' },
  },
  messages: {
    tools: [
      { name: 'lookup_stock', description: 'The price of a stock.', input_schema: JSON.parse(stockSchema) },
    ],
    choice: { type: 'tool', name: 'lookup_stock' },
  },
};

test('a schema that is not valid is refused, saying where', async ({ page }) => {
  await openApp(page);
  await openTools(page);
  const dialog = tools(page);
  await addTool(page, 'get weather', '{"type":"object",\n  "properties": {x}}');
  await expect(dialog.getByRole('alert')).toHaveText('Nothing was saved: correct the fields marked.');
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
    'Only letters, digits, _ and -, at most 64 of them.',
  );
  const schema = dialog.getByRole('textbox', { name: 'Parameters (JSON Schema)' });
  await expect(schema).toHaveAccessibleDescription('This is not valid JSON: line 2, column 18.');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('get_stock');
  await schema.fill('{"type":"object","properties":{"symbol":{"type":"strin"}}}');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(schema).toHaveAccessibleDescription(
    'This is not a valid JSON Schema (draft 2020-12) at /properties/symbol/type: it breaks the meta-schema’s “anyOf” rule there.',
  );
  await expect(dialog.getByRole('listitem').filter({ hasText: 'get_stock' })).toHaveCount(0);
  await schema.fill(stockSchema);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByRole('listitem').filter({ hasText: 'get_stock' })).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);

  // Kept in the library, and from there used in another chat.
  await dialog.getByRole('button', { name: 'Save get_stock to the library' }).click();
  await closeTools(page);
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await openTools(page);
  await expect(dialog.getByRole('button', { name: 'Remove get_stock' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Use get_stock' }).click();
  await expect(dialog.getByRole('button', { name: 'Remove get_stock' })).toBeVisible();
});

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: a tool of one's own, offered in its shape and answered by hand`, async ({
    page,
  }) => {
    await stockChat(page, protocol);
    await tools(page)
      .getByRole('combobox', { name: 'Tool choice' })
      .selectOption({ label: 'Only lookup_stock' });
    await closeTools(page);

    const text = uniqueText('What does ACME cost?');
    const turn = await waitForAnswer(await send(page, text));
    const body = await bodyWith(page, text);
    expect(body.tools).toEqual(offered[protocol].tools);
    expect(body.tool_choice).toEqual(offered[protocol].choice);

    const card = turn.getByRole('region', { name: 'Tool call lookup_stock' });
    await expect(card).toContainText('"symbol"');
    await card.getByRole('textbox', { name: 'Result for lookup_stock' }).fill('{"price": 317}');
    const final = await waitForAnswer(
      await newTurn(page, () => card.getByRole('button', { name: 'Send result' }).click()),
    );
    await expect(final).toContainText('317');
  });
}

test('Anthropic Messages: required is any, and none is none on Chat Completions', async ({ page }) => {
  await stockChat(page, 'messages');
  await tools(page)
    .getByRole('combobox', { name: 'Tool choice' })
    .selectOption({ label: 'Required: it must call a tool' });
  await closeTools(page);
  const text = uniqueText('Any tool?');
  await waitForAnswer(await send(page, text));
  expect((await bodyWith(page, text)).tool_choice).toEqual({
    type: 'any',
  });

  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await choose(page, 'chat', 'sim-tools');
  await openTools(page);
  await tools(page)
    .getByRole('combobox', { name: 'Tool choice' })
    .selectOption({ label: 'None: no tool calls' });
  await closeTools(page);
  const none = uniqueText('No tool');
  const turn = await waitForAnswer(await send(page, none));
  expect((await bodyWith(page, none)).tool_choice).toBe('none');
  await expect(turn.getByRole('region', { name: /Tool call/ })).toHaveCount(0);
});

test('a call answered by its result template, and the conversation goes on by itself', async ({ page }) => {
  await stockChat(page, 'responses', '{"price": 512, "symbol": "{{symbol}}"}');
  await expect(tools(page).getByRole('listitem').filter({ hasText: 'lookup_stock' })).toContainText(
    'Its calls are answered by its result template.',
  );
  await closeTools(page);
  const text = uniqueText('What does ACME cost?');
  // Two answers come of it, the second without the person: not `send`, which waits for one.
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const turns = page.getByTestId('assistant-turn');
  await expect(turns).toHaveCount(2);
  await waitForAnswer(turns.nth(1));
  await expect(turns.nth(1)).toContainText('512');
  const card = turns.nth(0).getByRole('region', { name: 'Tool call lookup_stock' });
  await expect(card).toContainText('Result sent');
  const requests = await requestsContaining(page, text);
  expect(requests).toHaveLength(2);
  const input = (requests[1]!.body as { input: Record<string, unknown>[] }).input;
  const symbol = JSON.parse(String(input.find((i) => i.type === 'function_call')?.arguments)).symbol;
  expect(input.find((i) => i.type === 'function_call_output')?.output).toBe(
    `{"price": 512, "symbol": "${symbol}"}`,
  );
});

const answerSchema =
  '{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"array","items":{"type":"integer"}}},"required":["city"]}';

const asked: Record<ProtocolKey, (body: Record<string, unknown>) => unknown> = {
  chat: (body) => body.response_format,
  responses: (body) => body.text,
  messages: (body) => ({ tools: body.tools, tool_choice: body.tool_choice }),
};

const askedShape: Record<ProtocolKey, unknown> = {
  chat: {
    type: 'json_schema',
    json_schema: { name: 'answer', schema: JSON.parse(answerSchema), strict: true },
  },
  responses: {
    format: { type: 'json_schema', name: 'answer', schema: JSON.parse(answerSchema), strict: true },
  },
  messages: {
    tools: [
      {
        name: 'structured_output',
        description: 'The answer, as JSON.',
        input_schema: JSON.parse(answerSchema),
      },
    ],
    tool_choice: { type: 'tool', name: 'structured_output' },
  },
};

for (const protocol of protocolKeys) {
  test(`${protocolLabels[protocol]}: structured output checked and shown as a tree, a violation marked`, async ({
    page,
  }) => {
    await openApp(page);
    await choose(page, protocol, 'sim-echo');
    await openTools(page);
    await tools(page).getByRole('button', { name: 'Remove get_weather' }).click();
    await tools(page).getByRole('textbox', { name: 'Answer schema (JSON Schema)' }).fill(answerSchema);
    await tools(page).getByRole('button', { name: 'Use schema' }).click();
    await expect(tools(page).getByText('Answers must match this schema')).toBeVisible();
    await closeTools(page);

    const text = uniqueText('Weather?');
    const turn = await waitForAnswer(await send(page, text));
    expect(asked[protocol](await bodyWith(page, text))).toEqual(askedShape[protocol]);
    const answer = turn.getByRole('region', { name: 'Structured answer' });
    await expect(answer.getByRole('status')).toHaveText('The answer matches its schema.');
    const tree = answer.getByRole('list', { name: 'The answer as a tree' });
    await expect(tree.getByRole('listitem').filter({ hasText: /^city/ })).toContainText('"Paris"');
    await expect(turn.getByRole('region', { name: /Tool call/ })).toHaveCount(0);

    const broken = await waitForAnswer(await send(page, uniqueText('Weather? break the schema')));
    const wrong = broken.getByRole('region', { name: 'Structured answer' });
    await expect(wrong.getByRole('status')).toHaveText('The answer breaks its schema in 1 place.');
    await expect(wrong.getByRole('list', { name: 'Where the answer breaks its schema' })).toHaveText(
      '/city: breaks “type”',
    );
    const city = wrong
      .getByRole('list', { name: 'The answer as a tree' })
      .getByRole('listitem')
      .filter({ hasText: /^city/ });
    await expect(city).toContainText('42');
    await expect(city).toContainText('breaks “type”');
    // The tree folds.
    const days = wrong.locator('summary').first();
    await days.click();
    await expect(city).toBeHidden();
    if (protocol === 'chat') {
      await days.click();
      await broken.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${artifactsDir}/tools-structured.png` });
    }
  });
}

for (const [name, options] of [
  ['desktop', { colorScheme: 'light', viewport: { width: 1280, height: 800 } }],
  ['phone-dark', { colorScheme: 'dark', viewport: { width: 390, height: 844 } }],
  ['zh-CN', { colorScheme: 'light', viewport: { width: 1280, height: 800 }, locale: 'zh-CN' }],
] as const) {
  test(`the Tools dialog passes axe and fits: ${name}`, async ({ browser }) => {
    await inContext(browser, options, async (page) => {
      await page.goto('/');
      const chinese = name === 'zh-CN';
      await page.getByRole('button', { name: chinese ? '参数' : 'Parameters', exact: true }).click();
      await page.getByRole('button', { name: chinese ? '工具…' : 'Tools…' }).click();
      const dialog = page.getByRole('dialog', { name: chinese ? '工具' : 'Tools' });
      await expect(dialog.getByRole('listitem').filter({ hasText: 'get_weather' })).toBeVisible();
      await page.screenshot({ path: `${artifactsDir}/tools-${name}-top.png` });
      await dialog.getByRole('button', { name: chinese ? '添加工具' : 'Add tool' }).click();
      await dialog.getByRole('textbox', { name: chinese ? '名称' : 'Name' }).fill('get_stock');
      await dialog
        .getByRole('textbox', { name: chinese ? '参数（JSON Schema）' : 'Parameters (JSON Schema)' })
        .fill('{"type": 1}');
      await dialog.getByRole('button', { name: chinese ? '保存' : 'Save', exact: true }).click();
      await expect(dialog.getByRole('alert')).toBeVisible();
      expect(await violations(page)).toEqual([]);
      expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      await page.screenshot({ path: `${artifactsDir}/tools-${name}.png` });
    });
  });
}

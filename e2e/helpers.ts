import { expect, type Page } from '@playwright/test';

export const protocolLabels = {
  chat: 'Chat Completions',
  responses: 'Responses',
  messages: 'Anthropic Messages',
} as const;

export type ProtocolKey = keyof typeof protocolLabels;
export const protocolKeys = Object.keys(protocolLabels) as ProtocolKey[];

export async function openApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

export async function choose(page: Page, protocol: ProtocolKey, model: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Protocol' }).selectOption({ label: protocolLabels[protocol] });
  await page.getByRole('combobox', { name: 'Model' }).selectOption(model);
}

export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

export function turns(page: Page) {
  return page.getByTestId('assistant-turn');
}

/** Waits until the last answer has stopped streaming. */
export async function waitForAnswer(page: Page) {
  const turn = turns(page).last();
  await expect(turn).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  return turn;
}

/** Sets settings through the dialog, as a person would. */
export async function setSettings(page: Page, fields: Record<string, string>): Promise<void> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  for (const [label, value] of Object.entries(fields)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/** A word no other test sends, to find this test's requests in the simulator's shared log. */
export function uniqueText(prefix: string): string {
  return `${prefix} ${Math.random().toString(36).slice(2, 10)}`;
}

export interface LoggedRequest {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export async function requestsContaining(page: Page, needle: string): Promise<LoggedRequest[]> {
  const response = await page.request.get('/__sim/requests');
  const all = (await response.json()) as LoggedRequest[];
  return all.filter((r) => JSON.stringify(r.body).includes(needle));
}

export const artifactsDir = 'e2e-artifacts';

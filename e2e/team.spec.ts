import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import {
  artifactsDir,
  choose,
  fontsNotWarmed,
  type ProtocolKey,
  protocolLabels,
  send,
  uniqueText,
  violations,
  waitForAnswer,
} from './helpers.ts';
import { simUrl } from './serve.ts';
import { startTeamServers, type TeamServers, teamUrls } from './team.ts';

// Team mode as deployed: people sign in through a real OpenID provider (or an authenticating proxy), their
// conversations live in PostgreSQL shared by two server processes, a person's devices (browser contexts)
// stay in step without a reload, and nobody sees anyone else's.

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let servers: TeamServers;
test.beforeAll(async () => {
  servers = await startTeamServers();
});
test.afterAll(async () => {
  await servers?.close();
});

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** A device: a browser context of its own (its own cookies and IndexedDB), on one of the servers. */
async function device(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, ...options });
  contexts.push(context);
  return context.newPage();
}

/** Signs in as `login` through the provider's own sign-in page, as a person does, and comes back to the app. */
async function signIn(page: Page, login: string, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Sign in to HopBase Chat' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: /sign-in/i }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
}

/** Writes a record into single-person mode's database, made as that mode makes it (this origin never did). */
async function keepAsSinglePersonMode(page: Page, key: string, value: unknown): Promise<void> {
  await page.evaluate(
    ({ key, value }) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('hopbase-chat');
        open.onupgradeneeded = () => open.result.createObjectStore('state');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('state', 'readwrite');
          tx.objectStore('state').put(value, key);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { key, value },
  );
}

function account(page: Page) {
  return page.getByRole('region', { name: 'Your account' });
}

async function inSync(page: Page) {
  await expect(account(page).getByRole('status')).toHaveText('Saved on the server');
}

test('a person’s two devices, on two server processes, stay in step; another person sees none of it', async ({
  browser,
}) => {
  const phone = await device(browser, teamUrls.first);
  await signIn(phone, 'alice');
  await expect(account(phone)).toContainText('alice@example.test');
  await inSync(phone);
  // The account's place in the sidebar too shows its text in the fonts made ready before the first layout.
  expect(await fontsNotWarmed(phone)).toEqual([]);

  const question = uniqueText('Which ferries leave Bergen');
  await waitForAnswer(await send(phone, question));
  await inSync(phone);
  const address = new URL(phone.url()).pathname;
  expect(address).toMatch(/^\/c\//);

  // The laptop reaches the other server process: the conversation is there, answer and all.
  const laptop = await device(browser, teamUrls.second);
  await signIn(laptop, 'alice', address);
  await expect(laptop.getByTestId('user-message').filter({ hasText: question })).toBeVisible();
  await expect(laptop.getByTestId('assistant-turn')).toHaveCount(1);
  await inSync(laptop);

  // The phone's request body went beside the record: the laptop's inspector reads it from the server.
  await laptop.getByTestId('assistant-turn').getByRole('button', { name: 'Inspect' }).click();
  const inspector = laptop.getByRole('complementary', { name: 'Inspector' });
  const request = inspector.getByRole('group').filter({ hasText: /^Request: POST/ });
  await request.getByText(/^Request: POST/).click();
  await expect(request.getByText(question)).toBeVisible();
  await expect(request.getByText('The body of this request is no longer stored')).toHaveCount(0);
  await inspector.getByRole('button', { name: 'Close inspector' }).click();

  // A rename on the phone shows on the laptop without a reload.
  await phone
    .getByRole('button', { name: /^Rename / })
    .first()
    .click();
  await phone.getByRole('textbox', { name: 'Conversation title' }).fill('Bergen ferries');
  await phone.getByRole('button', { name: 'Save' }).click();
  await expect(laptop.getByRole('navigation').getByText('Bergen ferries')).toBeVisible();

  // A follow-up written on the laptop shows on the phone.
  const followUp = uniqueText('And on Sundays');
  await waitForAnswer(await send(laptop, followUp));
  await expect(phone.getByTestId('user-message').filter({ hasText: followUp })).toBeVisible();
  await expect(phone.getByTestId('assistant-turn')).toHaveCount(2);
  await phone.screenshot({ path: `${artifactsDir}/team-two-devices.png` });

  // The laptop's search runs in the server's database, and finds the follow-up.
  const searched = (page: Page) =>
    page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/conversations' && url.searchParams.has('q');
    });
  const laptopAsked = searched(laptop);
  await laptop.getByRole('searchbox', { name: 'Search conversations' }).fill(followUp);
  expect(new URL((await laptopAsked).url()).searchParams.get('q')).toBe(followUp);
  await expect(
    laptop.getByRole('list', { name: 'Search results' }).getByText('Bergen ferries'),
  ).toBeVisible();
  await laptop.getByRole('searchbox', { name: 'Search conversations' }).fill('');

  // Mallory, signed in as herself, has nothing, and Alice's address shows her "not found", nothing of it.
  const mallory = await device(browser, teamUrls.first);
  await signIn(mallory, 'mallory', address);
  await expect(
    mallory.getByRole('status').filter({ hasText: 'No conversation of yours has this address' }),
  ).toBeVisible();
  await expect(mallory.getByText(question)).toHaveCount(0);
  await expect(mallory.getByRole('navigation').getByText('Bergen ferries')).toHaveCount(0);
  // Nor does her search, which the database answers for her alone.
  const malloryAsked = searched(mallory);
  await mallory.getByRole('searchbox', { name: 'Search conversations' }).fill(followUp);
  await malloryAsked;
  await expect(mallory.getByRole('status').filter({ hasText: 'No conversation matches' })).toBeVisible();
  await mallory.getByRole('searchbox', { name: 'Search conversations' }).fill('');

  // A deletion on the laptop takes it off the phone.
  await laptop.getByRole('button', { name: 'Delete Bergen ferries' }).click();
  await expect(phone.getByRole('navigation').getByText('Bergen ferries')).toHaveCount(0);
});

test('an answer begun on one device goes on to its end on another, on the other server process, with one request to the gateway', async ({
  browser,
}) => {
  const phone = await device(browser, teamUrls.first);
  await signIn(phone, 'carol');
  await choose(phone, 'chat', 'sim-long');
  const question = uniqueText('Plan a move to Tromsø');
  const begun = await send(phone, question);
  await expect(begun.getByRole('heading', { name: /^2\. / })).toBeVisible();
  const address = new URL(phone.url()).pathname;

  // The laptop reaches the other process, mid-answer: the answer is picked up there, where it is.
  const laptop = await device(browser, teamUrls.second);
  await signIn(laptop, 'carol', address);
  const picked = laptop.getByTestId('assistant-turn');
  await expect(picked.getByRole('heading', { name: /^2\. / })).toBeVisible();
  await phone.close();
  await expect(picked).toHaveAttribute('aria-busy', 'false', { timeout: 90_000 });
  await expect(picked.getByText('That is the whole plan, end to end.')).toBeVisible();
  await expect(picked.getByTestId('interruption-banner')).toHaveCount(0);
  const log = (await (await laptop.request.get(`${simUrl}/__sim/requests`)).json()) as { body: unknown }[];
  expect(log.filter((request) => JSON.stringify(request.body).includes(question))).toHaveLength(1);
});

test('signing out ends the session on the server, and the page asks to sign in again', async ({
  browser,
}) => {
  const page = await device(browser, teamUrls.first);
  await signIn(page, 'bruno');
  await inSync(page);
  await account(page).getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to HopBase Chat' })).toBeVisible();
  // The gateway is closed to a page without a session.
  const refused = await page.evaluate(async () => (await fetch('/v1/models')).status);
  expect(refused).toBe(401);
});

test('behind an authenticating proxy: the history kept before is offered once, and reaches the other device', async ({
  browser,
}) => {
  const person = { 'x-forwarded-email': 'hana@example.test' };
  // Hana used this browser before the server went to team mode: her history is in its own database.
  const before = await device(browser, teamUrls.header);
  await before.goto('/');
  await expect(before.getByRole('heading', { name: 'Sign in to HopBase Chat' })).toBeVisible();
  await expect(before.getByText('did not say who you are')).toBeVisible();
  const title = uniqueText('Kept before team mode');
  await keepAsSinglePersonMode(before, 'conversation:conv_keptbefore1', {
    id: 'conv_keptbefore1',
    title,
    createdAt: 1_800_000_000_000,
    updatedAt: 1_800_000_000_000,
    messages: [
      { id: 'msg_keptbefore1', role: 'user', text: 'Hello from before', createdAt: 1_800_000_000_000 },
    ],
  });
  await before.context().setExtraHTTPHeaders(person);
  await before.reload();
  const offer = before.getByRole('region', { name: 'Add to my account' });
  await expect(offer).toContainText('This browser kept 1 conversation from before you signed in');
  await before.screenshot({ path: `${artifactsDir}/team-local-history.png` });
  await offer.getByRole('button', { name: 'Add to my account' }).click();
  await expect(before.getByRole('status').filter({ hasText: 'Added 1 conversation' })).toBeVisible();
  await inSync(before);

  const other = await device(browser, teamUrls.header, { extraHTTPHeaders: person });
  await other.goto('/');
  await expect(other.getByRole('navigation').getByText(title)).toBeVisible();
  // Offered once: a reload does not ask again, and nothing is doubled.
  await before.reload();
  await inSync(before);
  await expect(before.getByRole('region', { name: 'Add to my account' })).toHaveCount(0);
  await expect(before.getByRole('navigation').getByText(title)).toHaveCount(1);
  // Team mode leaves no picture of its screen for the next load (single-person mode does): nothing of
  // the person's conversations in this browser's localStorage.
  expect(await before.evaluate(() => Object.values(localStorage).join('\n'))).not.toContain(title);
});

test('sign-in and the account on a phone, in the dark, in Japanese: readable, and no accessibility fault', async ({
  browser,
}) => {
  const context = await browser.newContext({
    baseURL: teamUrls.first,
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
    locale: 'ja-JP',
  });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'HopBase Chat にサインイン' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/team-sign-in-phone-dark-ja.png` });

  await page.getByRole('link', { name: 'サインイン' }).click();
  await page.getByPlaceholder('Enter any login').fill('kenji');
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: /sign-in/i }).click();
  await expect(page.getByRole('textbox', { name: 'メッセージ' })).toBeVisible();
  await page.getByRole('button', { name: '会話' }).click();
  const panel = page.getByRole('region', { name: 'アカウント' });
  await expect(panel.getByRole('status')).toHaveText('サーバーに保存済み');
  await expect(panel).toBeInViewport();
  expect(await violations(page, '.sidebar')).toEqual([]);
  await page.screenshot({ path: `${artifactsDir}/team-account-phone-dark-ja.png` });
});

/** What one answer cost, as its usage line shows it: `14 in · 52 out · 66 total` (`· 3 cached` if any). */
async function tokensShown(turn: Locator) {
  const line = await turn.getByTestId('turn-usage').innerText();
  const figure = (name: string) => new RegExp(`([\\d,]+) ${name}`).exec(line)?.[1];
  const [input, output] = [figure('in'), figure('out')];
  if (!input || !output) throw new Error(`No usage in “${line}”`);
  return { input, output, cached: figure('cached') ?? '0' };
}

/** A person who sends one message on `protocol`; what its answer cost, as the page shows it. */
async function askOnce(page: Page, protocol: ProtocolKey) {
  await choose(page, protocol, 'sim-echo');
  const answer = await waitForAnswer(await send(page, uniqueText('How long is the Flåm railway')));
  const tokens = await tokensShown(answer);
  await inSync(page);
  return { protocol: protocolLabels[protocol], ...tokens };
}

/** Opens Settings; its Usage section. */
async function usageIn(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings' }).click();
  return page.getByRole('dialog', { name: 'Settings' }).getByRole('group', { name: 'Usage' });
}

/** A usage row's cells as they should read: one answer of sim-echo, today (a day as the table writes it). */
function oneAnswer({ protocol, input, output, cached }: Awaited<ReturnType<typeof askOnce>>) {
  return [/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/, 'sim-echo', protocol, input, output, cached, '1', '0'];
}

test('usage: each person sees what the server counted of their own answers, an administrator everyone’s', async ({
  browser,
}) => {
  // Two people, each on a server process of their own, each ask once, on two protocols.
  const ines = await device(browser, teamUrls.first);
  await signIn(ines, 'ines');
  const inesAsked = await askOnce(ines, 'chat');
  const omar = await device(browser, teamUrls.second);
  await signIn(omar, 'omar');
  const omarAsked = await askOnce(omar, 'messages');

  // Ines sees her answer's tokens, as the server metered them, and nothing of Omar's.
  const own = await usageIn(ines);
  await expect(own.getByRole('combobox', { name: 'Period' })).toHaveValue('7');
  const inesTable = own.getByRole('table', { name: /^Your usage, .+ \(UTC\)$/ });
  await expect(inesTable.getByRole('row')).toHaveCount(3);
  await expect(inesTable.getByRole('row').nth(1).getByRole('cell')).toHaveText(oneAnswer(inesAsked));
  const total = inesTable.getByRole('row').filter({ has: ines.getByRole('rowheader', { name: 'Total' }) });
  await expect(total.getByRole('cell')).toHaveText(oneAnswer(inesAsked).slice(-5));
  // Not an administrator: nobody else's usage to choose.
  await expect(own.getByRole('combobox', { name: 'Whose usage' })).toHaveCount(0);
  await own.screenshot({ path: `${artifactsDir}/team-usage-own.png` });

  const omarsOwn = await usageIn(omar);
  const omarTable = omarsOwn.getByRole('table', { name: /^Your usage/ });
  await expect(omarTable.getByRole('row')).toHaveCount(3);
  await expect(omarTable.getByRole('row').nth(1).getByRole('cell')).toHaveText(oneAnswer(omarAsked));
  await expect(omarsOwn.getByRole('combobox', { name: 'Whose usage' })).toHaveCount(0);

  // An administrator (the provider's group says so), on a phone in the dark: their own usage (none), then
  // everyone's, per person.
  const admin = await device(browser, teamUrls.first, {
    viewport: { width: 390, height: 844 },
    colorScheme: 'dark',
  });
  await signIn(admin, 'admin-rosa');
  const usage = await usageIn(admin);
  const whose = usage.getByRole('combobox', { name: 'Whose usage' });
  await expect(whose).toHaveValue('own');
  await expect(usage.getByText('No usage in these days.')).toBeVisible();
  await whose.selectOption({ label: 'Everyone' });
  const everyone = usage.getByRole('table', { name: /^Everyone’s usage/ });
  // Each person's rows are headed by their email.
  const rowsOf = (email: string) =>
    everyone
      .getByRole('rowgroup')
      .filter({ has: admin.getByRole('rowheader', { name: email, exact: true }) })
      .getByRole('row');
  await expect(rowsOf('ines@example.test')).toHaveCount(2);
  await expect(rowsOf('ines@example.test').nth(1).getByRole('cell')).toHaveText(oneAnswer(inesAsked));
  await expect(rowsOf('omar@example.test')).toHaveCount(2);
  await expect(rowsOf('omar@example.test').nth(1).getByRole('cell')).toHaveText(oneAnswer(omarAsked));
  expect(await violations(admin, '.usage')).toEqual([]);
  await usage.screenshot({ path: `${artifactsDir}/team-usage-everyone-phone-dark.png` });

  // The usage page shows the server's figures too, per protocol. Ines's own are her one answer exactly;
  // everyone's hold the other specs' people on this server as well, so at least both answers. These servers
  // have no price table (their gateway is a plain simulator): no dollars, and never $0.
  await ines.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
  await ines.getByRole('button', { name: 'Usage and cost' }).click();
  const inesPage = ines.getByRole('dialog', { name: 'Usage and cost' });
  await inesPage.getByRole('radio', { name: 'Per protocol' }).check();
  const inesRow = inesPage
    .getByRole('table', { name: 'Usage per protocol' })
    .getByRole('row')
    .filter({ has: ines.getByRole('rowheader', { name: inesAsked.protocol }) });
  const { input, cached, output } = inesAsked;
  await expect(inesRow.getByRole('cell')).toHaveText([input, cached, output, '0', 'price unknown']);

  await admin.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();
  await admin.getByRole('button', { name: 'Conversations' }).click();
  await admin.getByRole('button', { name: 'Usage and cost' }).click();
  const usagePage = admin.getByRole('dialog', { name: 'Usage and cost' });
  await usagePage.getByRole('combobox', { name: 'Whose usage' }).selectOption({ label: 'Everyone' });
  await usagePage.getByRole('radio', { name: 'Per protocol' }).check();
  const perProtocol = usagePage.getByRole('table', { name: 'Usage per protocol, everyone’s' });
  const count = (text: string) => Number(text.replaceAll(',', ''));
  for (const asked of [inesAsked, omarAsked]) {
    const cells = perProtocol
      .getByRole('row')
      .filter({ has: admin.getByRole('rowheader', { name: asked.protocol }) })
      .getByRole('cell');
    await expect(cells.last()).toHaveText('price unknown');
    const [everyoneIn, , everyoneOut] = await cells.allTextContents();
    expect(count(everyoneIn!)).toBeGreaterThanOrEqual(count(asked.input));
    expect(count(everyoneOut!)).toBeGreaterThanOrEqual(count(asked.output));
  }
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markdownRenderer } from '../components/markdown/LazyMarkdown.tsx';
import { everyNBytes, fixtureBytes, streamFromBytes } from '../core/testing/fixtures.ts';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';
import { App } from './App.tsx';

let app: TestApp;

const streams: Record<string, string> = {
  '/v1/chat/completions': 'chat/openai-json-text-usage.sse',
  '/v1/responses': 'responses/openai-text.sse',
  '/v1/messages': 'anthropic/text-padded.sse',
};

/** The fake gateway: `/v1/models`, and each protocol's endpoint answering with a recorded stream. */
function gateway() {
  return vi.fn<typeof fetch>(async (input, init) => {
    const url = String(input);
    if (url === '/v1/models') {
      return Response.json({
        object: 'list',
        data: [
          { id: 'sim-echo', object: 'model', description: 'Echo' },
          { id: 'sim-tools', object: 'model', description: 'Calls a tool' },
        ],
      });
    }
    const name = streams[url];
    if (!name || init?.method !== 'POST') return new Response('not found', { status: 404 });
    const bytes = fixtureBytes(name);
    return new Response(streamFromBytes(bytes, everyNBytes(bytes.length, 16)), {
      headers: { 'content-type': 'text/event-stream' },
    });
  });
}

let fetchMock: ReturnType<typeof gateway>;
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  app = createTestApp();
  sessionStorage.clear();
  fetchMock = gateway();
  vi.stubGlobal('fetch', fetchMock);
  consoleError = vi.spyOn(console, 'error');
});

afterEach(() => {
  // React reports act() problems, unstable selectors and key warnings here: none expected.
  expect(consoleError).not.toHaveBeenCalled();
  consoleError.mockRestore();
  vi.unstubAllGlobals();
});

function renderApp() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return app.render(
    <QueryClientProvider client={client}>
      <App />
    </QueryClientProvider>,
  );
}

const streamPosts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => ({
      url: String(url),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    }));

// As main.tsx does at startup: the markdown renderer is loaded before the first answer shows.
beforeEach(() => markdownRenderer(app.markdown).load());

describe('App', () => {
  it('streams an answer typed in the composer, with its usage', async () => {
    const user = userEvent.setup();
    renderApp();
    expect(await screen.findByRole('option', { name: 'sim-tools — Calls a tool' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'HopBase Chat' })).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Weather in SF as JSON?{Enter}');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    expect(screen.getByTestId('user-message')).toHaveTextContent('Weather in SF as JSON?');

    const turn = await screen.findByTestId('assistant-turn');
    expect(turn.tagName).toBe('ARTICLE');
    expect(turn).toHaveAccessibleName('Answer from sim-echo via Chat Completions');
    await waitFor(() =>
      expect(within(turn).getByTestId('turn-usage')).toHaveTextContent('17 in · 10 out · 27 total'),
    );
    expect(within(turn).getByTestId('turn-usage').textContent).toBe('17 in · 10 out · 27 total');
    // A burst that came live is shown over a few frames, also once the answer has ended.
    await waitFor(() =>
      expect(within(turn).getByTestId('turn-text')).toHaveTextContent('{"city":"San Francisco","units":"c"}'),
    );
    expect(turn).toHaveAttribute('aria-busy', 'false');
    expect(within(turn).queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('conversation-usage')).toHaveTextContent(
      'Conversation: 17 in · 10 out · 27 total',
    );
    // The sidebar lists the conversation under its first message.
    expect(
      within(screen.getByRole('navigation', { name: 'Conversations' })).getByRole('button', {
        name: /^Weather in SF as JSON\?/,
      }),
    ).toHaveAttribute('aria-current', 'page');

    const posts = streamPosts();
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe('/v1/chat/completions');
    expect(posts[0]!.body).toMatchObject({
      model: 'sim-echo',
      stream: true,
      messages: [{ role: 'user', content: 'Weather in SF as JSON?' }],
    });
    // Send is back once the answer ended.
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('sends the next request with the protocol chosen in the toolbar, history included', async () => {
    const user = userEvent.setup();
    renderApp();
    const message = screen.getByRole('textbox', { name: 'Message' });
    await user.type(message, 'First{Enter}');
    await waitFor(() => expect(screen.getByTestId('turn-usage')).toHaveTextContent('27 total'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Protocol' }), 'Responses');
    expect(app.stores.settings.getState().settings.protocol).toBe('responses');
    await user.type(message, 'Second{Enter}');

    await waitFor(() => expect(screen.getAllByTestId('assistant-turn')).toHaveLength(2));
    const second = screen.getAllByTestId('assistant-turn')[1]!;
    await waitFor(() =>
      expect(within(second).getByTestId('turn-usage')).toHaveTextContent('20 in · 10 out · 30 total'),
    );
    expect(second).toHaveAccessibleName('Answer from sim-echo via Responses');
    await waitFor(() => expect(within(second).getByTestId('turn-text')).toHaveTextContent('2+2 = 4'));

    const posts = streamPosts();
    expect(posts.map((p) => p.url)).toEqual(['/v1/chat/completions', '/v1/responses']);
    expect(posts[1]!.body.input).toEqual([
      { role: 'user', content: 'First' },
      { role: 'assistant', content: '{"city":"San Francisco","units":"c"}' },
      { role: 'user', content: 'Second' },
    ]);
    expect(screen.getByTestId('conversation-usage')).toHaveTextContent(
      'Conversation: 37 in · 20 out · 57 total',
    );
  });

  it('says when conversations could not be saved, and stops saying it once saving works', async () => {
    renderApp();
    expect(screen.queryByText(/could not be saved/)).toBeNull();
    act(() =>
      app.stores.storage.setState({ error: 'Conversations could not be saved in this browser: quota' }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(/could not be saved.*reload would lose/);
    act(() => app.stores.storage.setState({ error: null }));
    expect(screen.queryByText(/could not be saved/)).toBeNull();
  });

  it('opens and closes the settings', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('gives focus back to the Settings button when the settings close', async () => {
    const user = userEvent.setup();
    renderApp();
    const button = screen.getByRole('button', { name: 'Settings' });
    await user.click(button);
    await screen.findByRole('dialog', { name: 'Settings' });
    await user.keyboard('{Escape}');
    expect(button).toHaveFocus();
  });

  it('keeps each conversation’s draft to itself', async () => {
    const store = app.stores.conversations.getState();
    const first = store.newConversation();
    store.renameConversation(first, 'First');
    const second = store.newConversation();
    store.renameConversation(second, 'Second');
    const user = userEvent.setup();
    renderApp();
    const sidebar = screen.getByRole('navigation', { name: 'Conversations' });
    const box = screen.getByRole('textbox', { name: 'Message' });
    await user.type(box, 'Meant for Second');

    await user.click(within(sidebar).getByRole('button', { name: /^First/ }));
    expect(box).toHaveValue('');
    await user.type(box, 'Hello First{Enter}');
    await waitFor(() => expect(screen.getByTestId('turn-usage')).toHaveTextContent('27 total'));
    expect(streamPosts()).toHaveLength(1);
    expect(app.stores.conversations.getState().conversations[second]!.messages).toEqual([]);

    await user.click(within(sidebar).getByRole('button', { name: /^Second/ }));
    expect(box).toHaveValue('Meant for Second');
  });

  it('on a narrow screen, the closed sidebar is inert and its toggle says whether it is open', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({
        matches: query === '(max-width: 760px)',
        media: query,
        addEventListener: vi.fn(),
        removeEventListener: vi.fn(),
      })),
    );
    const user = userEvent.setup();
    renderApp();
    const toggle = screen.getByRole('button', { name: 'Conversations' });
    const sidebar = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(sidebar).toHaveAttribute('aria-label', 'Conversations');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(sidebar).toHaveAttribute('inert');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(sidebar).not.toHaveAttribute('inert');
    await user.click(within(sidebar).getByRole('button', { name: 'New chat' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(sidebar).toHaveAttribute('inert');
  });

  it('keeps the sidebar reachable on a wide screen', () => {
    renderApp();
    expect(screen.getByRole('navigation', { name: 'Conversations' })).not.toHaveAttribute('inert');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/testApp.tsx';
import { ModelSelect } from './ModelSelect.tsx';

let app: TestApp;

const models = {
  object: 'list',
  data: [
    { id: 'sim-echo', object: 'model', description: 'Echoes your message' },
    { id: 'sim-slow', object: 'model', description: 'Goes silent mid-answer' },
    { id: 'gpt-plain', object: 'model' },
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let client: QueryClient;

function renderSelect() {
  client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
  app.render(
    <QueryClientProvider client={client}>
      <ModelSelect />
    </QueryClientProvider>,
  );
  return screen.getByRole('combobox', { name: 'Model' });
}

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

beforeEach(() => {
  app = createTestApp();
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => vi.unstubAllGlobals());

describe('ModelSelect', () => {
  it('shows the current model as loading, then the list with descriptions', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const select = renderSelect();
    expect(select).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('option', { name: 'sim-echo (loading models…)' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/v1/models', { headers: {} });

    answer(json(models));
    expect(await screen.findByRole('option', { name: 'sim-echo — Echoes your message' })).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'sim-echo — Echoes your message',
      'sim-slow — Goes silent mid-answer',
      'gpt-plain',
    ]);
    expect(select).toHaveAttribute('aria-busy', 'false');
    expect(select).toHaveValue('sim-echo');
    expect(select).toHaveAttribute('title', 'Echoes your message');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('writes the chosen model to the settings store', async () => {
    fetchMock.mockResolvedValue(json(models));
    const user = userEvent.setup();
    const select = renderSelect();
    await screen.findByRole('option', { name: 'sim-slow — Goes silent mid-answer' });
    await user.selectOptions(select, 'sim-slow');
    expect(app.stores.settings.getState().settings.model).toBe('sim-slow');
    expect(select).toHaveValue('sim-slow');
    expect(select).toHaveAttribute('title', 'Goes silent mid-answer');
  });

  it('keeps a chosen model the gateway does not list', async () => {
    app.stores.settings.getState().update({ model: 'my-custom' });
    fetchMock.mockResolvedValue(json(models));
    const select = renderSelect();
    await screen.findByRole('option', { name: 'gpt-plain' });
    expect(select).toHaveValue('my-custom');
    expect(screen.getAllByRole('option')).toHaveLength(4);
  });

  it('sends the API key as the OpenAI protocols do, and keeps it out of the query cache', async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-secret-1' });
    fetchMock.mockResolvedValue(json(models));
    renderSelect();
    await screen.findByRole('option', { name: 'gpt-plain' });
    expect(fetchMock).toHaveBeenCalledWith('/v1/models', {
      headers: { authorization: 'Bearer sk-secret-1' },
    });
    const keys = JSON.stringify(
      client
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey),
    );
    expect(keys).not.toContain('sk-secret-1');
    expect(keys).not.toContain('secret');
  });

  it('sends the API key as Anthropic does while the Messages protocol is chosen', async () => {
    app.stores.settings
      .getState()
      .update({ apiKey: 'sk-ant-1', protocol: 'messages', baseUrl: 'https://gw.example/v1' });
    fetchMock.mockResolvedValue(json(models));
    renderSelect();
    await screen.findByRole('option', { name: 'gpt-plain' });
    expect(fetchMock).toHaveBeenCalledWith('https://gw.example/v1/models', {
      headers: { 'x-api-key': 'sk-ant-1', 'anthropic-dangerous-direct-browser-access': 'true' },
    });
  });

  it('fetches again for another key, and not when switching between the OpenAI protocols', async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-one' });
    fetchMock.mockResolvedValue(json(models));
    renderSelect();
    await screen.findByRole('option', { name: 'gpt-plain' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    act(() => app.stores.settings.getState().update({ protocol: 'responses' }));
    act(() => app.stores.settings.getState().update({ apiKey: 'sk-two' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(fetchMock).toHaveBeenLastCalledWith('/v1/models', { headers: { authorization: 'Bearer sk-two' } });
  });

  it('never calls a stored base URL that is not a complete http(s) address', async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-1', baseUrl: 'gateway.example.co' });
    renderSelect();
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent(
      'The gateway base URL in Settings is not a complete http(s) address.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows an alert with "Reload models" when the list fails, and reloads', async () => {
    fetchMock.mockResolvedValue(json({ error: { message: 'nope' } }, 500));
    const user = userEvent.setup();
    const select = renderSelect();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The model list could not be loaded (HTTP 500).');
    // The chosen model stays selectable.
    expect(select).toHaveValue('sim-echo');
    expect(screen.getByRole('option', { name: 'sim-echo' })).toBeInTheDocument();
    const calls = fetchMock.mock.calls.length;

    fetchMock.mockResolvedValue(json(models));
    await user.click(screen.getByRole('button', { name: 'Reload models' }));
    expect(await screen.findByRole('option', { name: 'gpt-plain' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.length).toBe(calls + 1);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

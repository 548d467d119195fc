/** The model list goes out through the session's fetch, with the protocol's credentials from its adapter. */
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../testing/testApp.tsx';
import { useModels } from './useModels.ts';

let app: TestApp;
let globalFetch: ReturnType<typeof vi.fn<typeof fetch>>;
let sessionFetch: ReturnType<typeof vi.fn<typeof fetch>>;

const list = () => new Response(JSON.stringify({ data: [{ id: 'sim-echo', description: 'Echo' }] }));

beforeEach(() => {
  app = createTestApp();
  globalFetch = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', globalFetch);
  sessionFetch = vi.fn<typeof fetch>(async () => list());
  app.setFetch(sessionFetch);
});

afterEach(() => vi.unstubAllGlobals());

describe('useModels', () => {
  it("fetches through the session's fetch, never the global one", async () => {
    const { result } = renderHook(() => useModels('chat'), { wrapper: app.wrapper });
    await waitFor(() => expect(result.current.data).toEqual([{ id: 'sim-echo', description: 'Echo' }]));
    expect(sessionFetch).toHaveBeenCalledWith('/v1/models', { headers: {} });
    expect(globalFetch).not.toHaveBeenCalled();
  });

  it("sends the protocol's own credentials, and its direct-browser header to another origin", async () => {
    app.stores.settings.getState().update({ apiKey: 'sk-ant', baseUrl: 'https://gw.example/v1' });
    const { result } = renderHook(() => useModels('messages'), { wrapper: app.wrapper });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(sessionFetch).toHaveBeenCalledWith('https://gw.example/v1/models', {
      headers: { 'x-api-key': 'sk-ant', 'anthropic-dangerous-direct-browser-access': 'true' },
    });
  });
});

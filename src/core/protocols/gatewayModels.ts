import type { ModelListing } from './adapter.ts';

/** HopBase's `GET /v1/models`, one list in OpenAI's shape whatever protocol asks: `{ data: [{ id, description? }] }`. */
export const gatewayModels: ModelListing = {
  path: '/models',
  read(body) {
    const { data } = body as { data?: { id: string; description?: string }[] };
    return (data ?? []).map(({ id, description }) => ({ id, description }));
  },
};

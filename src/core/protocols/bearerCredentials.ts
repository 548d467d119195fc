import type { Credentials } from './adapter.ts';

/** Both OpenAI protocols take the key the same way, so they share a model list. */
export const bearerCredentials: Credentials = {
  family: 'openai',
  key: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
};

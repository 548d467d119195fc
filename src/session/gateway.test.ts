import { describe, expect, it } from 'vitest';
import type { SentRequest } from '../state/domain/types.ts';
import { codeRequest } from './gateway.ts';

const sent: SentRequest = {
  url: '/v1/messages',
  path: '/messages',
  headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-planted': '1' },
  body: { model: 'm' },
};
const origin = 'http://127.0.0.1:5173';

describe('codeRequest', () => {
  it.each([
    ['', 'http://127.0.0.1:5173/v1'],
    ['   ', 'http://127.0.0.1:5173/v1'],
    ['https://gateway.example.com/v1', 'https://gateway.example.com/v1'],
    ['https://gateway.example.com/v1//', 'https://gateway.example.com/v1'],
  ])('base URL %j: %s', (baseUrl, base) => {
    expect(codeRequest('messages', sent, { baseUrl }, origin)?.base).toBe(base);
  });

  it('keeps only the headers Retry would send', () => {
    expect(codeRequest('messages', sent, { baseUrl: '' }, origin)?.headers).toEqual({
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
    });
  });

  it.each([
    ['a replayed recording', { ...sent, path: '' }],
    ['another protocol’s path', { ...sent, path: '/chat/completions' }],
  ])('none for %s', (_, request) => {
    expect(codeRequest('messages', request, { baseUrl: '' }, origin)).toBeNull();
  });
});

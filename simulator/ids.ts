import { createHash, randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

function hex(length: number): string {
  return randomBytes(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length);
}

/** Ids in the shapes the real APIs use, so clients that log or key on them see familiar values. */
export const ids = {
  chatCompletion: () => `chatcmpl-${base62(29)}`,
  toolCall: () => `call_${base62(24)}`,
  response: () => `resp_${hex(50)}`,
  responseMessage: () => `msg_${hex(50)}`,
  reasoning: () => `rs_${hex(50)}`,
  functionCall: () => `fc_${hex(50)}`,
  anthropicMessage: () => `msg_01${base62(22)}`,
  toolUse: () => `toolu_01${base62(22)}`,
  anthropicRequest: () => `req_011C${base62(20)}`,
  openaiRequest: () => `req_${hex(32)}`,
  /** Stable per model, like a real deployment's fingerprint. */
  fingerprint: (model: string) => `fp_${createHash('sha256').update(model).digest('hex').slice(0, 10)}`,
};

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Helpers shared by the simulator's tests: raw HTTP calls and a strict reading of the SSE text. */

export interface Frame {
  /** `event:` name, if the frame had one. */
  event?: string;
  /** The `data:` value. */
  data: string;
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a body to its end; a cut connection is reported instead of thrown, with the text received so far. */
export async function readText(res: Response): Promise<{ text: string; cut: boolean }> {
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  if (!reader) return { text, cut: false };
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    return { text, cut: false };
  } catch {
    return { text, cut: true };
  }
}

/** Splits the raw stream into frames, dropping keepalive comments; throws on anything malformed. */
export function frames(text: string): Frame[] {
  const blocks = text.split('\n\n');
  const last = blocks.pop();
  if (last !== '') throw new Error(`stream does not end with a blank line: ${JSON.stringify(last)}`);
  return blocks
    .filter((block) => block !== ': hopbase-keepalive')
    .map((block) => {
      const match = /^(?:event: ([^\n]+)\n)?data: ([^\n]*)$/.exec(block);
      if (!match) throw new Error(`malformed SSE frame: ${JSON.stringify(block)}`);
      return match[1] === undefined ? { data: match[2] ?? '' } : { event: match[1], data: match[2] ?? '' };
    });
}

export function payloads(text: string): Record<string, unknown>[] {
  return frames(text)
    .filter((f) => f.data !== '[DONE]')
    .map((f) => JSON.parse(f.data) as Record<string, unknown>);
}

export async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

import * as v from 'valibot';

/** The body as JSON, or nothing when it is not (a proxy's HTML page, say). */
export async function jsonOf(response: Response): Promise<unknown> {
  if (!response.headers.get('content-type')?.includes('application/json')) return undefined;
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The server's own words for a refusal (`{error}`), when it gave them. */
export function errorOf(body: unknown): string | undefined {
  const read = v.safeParse(v.object({ error: v.string() }), body);
  return read.success ? read.output.error : undefined;
}

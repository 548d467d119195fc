/**
 * Connections the page's Content-Security-Policy refused. A refused `fetch` rejects with a bare
 * "Failed to fetch"; the browser reports the reason a moment later as a `securitypolicyviolation` event
 * on the document. Listening for those lets a failed request say why it failed.
 */
export interface BlockedConnections {
  /** Whether a connection to `url`'s origin was refused by the policy (waits briefly for the report). */
  blocked(url: string): Promise<boolean>;
  dispose(): void;
}

type ViolationTarget = Pick<Document, 'addEventListener' | 'removeEventListener'>;

/** The report follows the rejected fetch within a task or two; past this the failure was something else. */
const reportWaitMs = 50;
const keptMs = 10_000;

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function watchBlockedConnections(
  page: ViolationTarget | undefined = globalThis.document,
): BlockedConnections {
  const refused = new Map<string, number>();
  const onViolation = (event: Event) => {
    const { effectiveDirective, blockedURI } = event as SecurityPolicyViolationEvent;
    const origin = effectiveDirective === 'connect-src' ? originOf(blockedURI) : null;
    if (origin) refused.set(origin, Date.now());
  };
  page?.addEventListener('securitypolicyviolation', onViolation);
  const seen = (origin: string) => Date.now() - (refused.get(origin) ?? -Infinity) < keptMs;
  return {
    async blocked(url) {
      const origin = originOf(url);
      if (!origin || !page) return false;
      if (seen(origin)) return true;
      await new Promise((resolve) => setTimeout(resolve, reportWaitMs));
      return seen(origin);
    },
    dispose() {
      page?.removeEventListener('securitypolicyviolation', onViolation);
    },
  };
}

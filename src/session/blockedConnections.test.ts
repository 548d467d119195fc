import { describe, expect, it } from 'vitest';
import { watchBlockedConnections } from './blockedConnections.ts';

function violation(directive: string, blockedURI: string): Event {
  return Object.assign(new Event('securitypolicyviolation'), { effectiveDirective: directive, blockedURI });
}

describe('watchBlockedConnections', () => {
  it('knows an origin the policy refused, whatever the path', async () => {
    const page = new EventTarget();
    const watch = watchBlockedConnections(page);
    page.dispatchEvent(violation('connect-src', 'https://gw.example.com/v1/chat/completions'));
    expect(await watch.blocked('https://gw.example.com/v1/models')).toBe(true);
    expect(await watch.blocked('https://other.example.com/v1/models')).toBe(false);
  });

  it('waits briefly for the report, which follows the failed request', async () => {
    const page = new EventTarget();
    const watch = watchBlockedConnections(page);
    const answer = watch.blocked('https://gw.example.com/v1/messages');
    setTimeout(() => page.dispatchEvent(violation('connect-src', 'https://gw.example.com/v1/messages')), 1);
    expect(await answer).toBe(true);
  });

  it('ignores other directives, and stops listening once disposed', async () => {
    const page = new EventTarget();
    const watch = watchBlockedConnections(page);
    page.dispatchEvent(violation('img-src', 'https://gw.example.com/logo.png'));
    expect(await watch.blocked('https://gw.example.com/v1/models')).toBe(false);
    watch.dispose();
    page.dispatchEvent(violation('connect-src', 'https://gw.example.com/v1/models'));
    expect(await watch.blocked('https://gw.example.com/v1/models')).toBe(false);
  });
});

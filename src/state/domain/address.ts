/**
 * Each conversation has its own address, `/c/<id>`: a reload stays on it, a link opens it, Back returns to
 * the one before (`src/app/address.ts` keeps the address in step; `useMissingConversation` says when the
 * address names one that is not here).
 */

const PREFIX = '/c/';

/** The conversation an address names, or null (`/`, anything else, an id that could never be one). */
export function conversationIdInPath(pathname: string): string | null {
  if (!pathname.startsWith(PREFIX)) return null;
  let id: string;
  try {
    id = decodeURIComponent(pathname.slice(PREFIX.length).replace(/\/$/, ''));
  } catch {
    return null;
  }
  return id.length > 0 && id.length <= 256 && !/[\p{Cc}/]/u.test(id) ? id : null;
}

/** Ids made here need no escaping; one from an old backup might. */
export function pathOf(conversationId: string | null): string {
  return conversationId === null ? '/' : `${PREFIX}${encodeURIComponent(conversationId)}`;
}

/** Said on `window` whenever this page changes its own address (pushState fires no event). */
export const addressChanged = 'hopbase:address';

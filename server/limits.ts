import { isIPv6 } from 'node:net';

/**
 * Who counts as one client for the per-client cap: an IPv4 address, or an IPv6 address's /64 network
 * (one host is usually given a whole /64, so counting single addresses would let it take any number).
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] ?? address;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

type Refusal = 'client' | 'total';

export interface ConcurrencyLimit {
  /** Takes a slot for `client`, or says which cap is full; `release` gives it back (only once). */
  enter(client: string): { release(): void } | Refusal;
  readonly inFlight: number;
}

/** Requests in flight, in total and per client; keys come from the network, hence a Map. */
export function createConcurrencyLimit(max: number, perClient: number): ConcurrencyLimit {
  const byClient = new Map<string, number>();
  let total = 0;
  return {
    enter(client) {
      const mine = byClient.get(client) ?? 0;
      if (mine >= perClient) return 'client';
      if (total >= max) return 'total';
      byClient.set(client, mine + 1);
      total++;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          total--;
          const left = (byClient.get(client) ?? 1) - 1;
          if (left === 0) byClient.delete(client);
          else byClient.set(client, left);
        },
      };
    },
    get inFlight() {
      return total;
    },
  };
}

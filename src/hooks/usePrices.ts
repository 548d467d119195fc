import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type PriceTable, readPriceTable } from '../core/index.ts';
import { pricesFor } from '../state/domain/cost.ts';
import { useSettings } from './useStores.ts';

const noPrices: PriceTable = Object.freeze({});

/**
 * The server's price table (`GET /api/prices`, read once per page), checked entry by entry where it
 * enters. A server without one (an older version: 404) or an answer that is no table means no prices:
 * answers then say "price unknown", never $0. It is this app's server, never the gateway: the page's
 * own `fetch`, not the session's. The app's start asks for it at once (`prefetchQuery`), so that the first
 * screen's answers render once with their prices, not a second time when they come.
 */
export const serverPricesQuery = queryOptions({
  queryKey: ['prices'],
  queryFn: async (): Promise<PriceTable> => {
    const response = await fetch('/api/prices', { headers: { accept: 'application/json' } });
    if (!response.ok) return noPrices;
    return readPriceTable(await response.json())?.table ?? noPrices;
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: 1,
});

/** The server's price table (`serverPricesQuery`), or none while it is on its way. */
export function useServerPrices(): PriceTable {
  const query = useQuery({
    ...serverPricesQuery,
    // Every answer reads it: only a new table may re-render them, never the query's own comings and goings.
    notifyOnChangeProps: ['data'],
  });
  return query.data ?? noPrices;
}

/** The prices answers are priced with: the server's, with the person's own from Settings over them. */
export function usePrices(): PriceTable {
  const server = useServerPrices();
  const own = useSettings((s) => s.settings.ownPrices);
  return useMemo(() => pricesFor(server, own), [server, own]);
}

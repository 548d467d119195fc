import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type PriceTable, readPriceTable } from '../core/index.ts';
import { pricesFor } from '../state/domain/cost.ts';
import { useSettings } from './useStores.ts';

const noPrices: PriceTable = Object.freeze({});

/**
 * The server's price table (`GET /api/prices`, read once per page), checked entry by entry where it
 * enters. A server without one (an older version: 404) or an answer that is no table means no prices:
 * answers then say "price unknown", never $0. It is this app's server, never the gateway: the page's
 * own `fetch`, not the session's.
 */
export function useServerPrices(): PriceTable {
  const query = useQuery({
    queryKey: ['prices'],
    queryFn: async () => {
      const response = await fetch('/api/prices', { headers: { accept: 'application/json' } });
      if (!response.ok) return noPrices;
      return readPriceTable(await response.json())?.table ?? noPrices;
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
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

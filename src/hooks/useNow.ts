import { useEffect, useState } from 'react';

/** The current time, refreshed every `intervalMs` while `active`: drives live counters. */
export function useNow(active: boolean, intervalMs = 1000, clock: () => number = Date.now): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    if (!active) return;
    setNow(clock());
    const timer = setInterval(() => setNow(clock()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, clock]);
  return now;
}

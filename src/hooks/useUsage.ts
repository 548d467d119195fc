import { useQuery } from '@tanstack/react-query';
import { personOf } from '../state/stores/teamStore.ts';
import { type DayRange, everyonesUsage, ownUsage, UsageError } from '../state/team/usageApi.ts';
import { useTeam } from './useStores.ts';

/** Whose usage: the person's own, or (administrators) everyone's. */
export type UsageScope = 'own' | 'everyone';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last `days` days up to today, in UTC: the days the server counts usage on. */
export function lastDays(days: number, now: number): DayRange {
  return { from: isoDay(now - (days - 1) * DAY_MS), to: isoDay(now) };
}

/**
 * The signed-in person's usage (or everyone's) over `range`, cached per person, scope and range: shown at
 * once when Settings opens again, and asked again then (an answer since counts), not when the period or
 * scope only goes back to one seen within the minute. Only a server that could not answer is asked again
 * after a failure: a refusal (a range it will not sum, not an administrator) stays one.
 */
export function useUsage(scope: UsageScope, range: DayRange) {
  const email = useTeam((s) => personOf(s)?.email ?? null);
  return useQuery({
    queryKey: ['usage', email, scope, range.from, range.to],
    queryFn: () => (scope === 'everyone' ? everyonesUsage(range) : ownUsage(range)),
    enabled: email !== null,
    staleTime: 60_000,
    refetchOnMount: 'always',
    retry: (failures, error) =>
      failures < 2 && error instanceof UsageError && error.problem.kind === 'unreachable',
  });
}

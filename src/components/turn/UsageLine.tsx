import type { TurnStatus, Usage } from '../../core/index.ts';
import './turn.css';

const format = (n: number) => n.toLocaleString('en-US');

/** `[count, label]` pairs; reasoning and cached only when the protocol reported them as non-zero. */
function counts(usage: Usage, names: { input: string; output: string }): [number, string][] {
  const list: [number, string][] = [
    [usage.inputTokens, names.input],
    [usage.outputTokens, names.output],
    [usage.totalTokens, 'total'],
  ];
  if (usage.reasoningTokens) list.push([usage.reasoningTokens, 'reasoning']);
  if (usage.cachedTokens) list.push([usage.cachedTokens, 'cached']);
  return list;
}

/** Token counts for one turn, e.g. `14 in · 52 out · 66 total · 40 reasoning`. */
export function UsageLine({ usage, status }: { usage: Usage | null; status: TurnStatus }) {
  if (usage === null) {
    // Usage normally arrives with the last event, so its absence only means something once the turn ended.
    if (status === 'streaming') return null;
    return (
      <p data-testid="turn-usage" className="turn-usage" title="Token usage was not reported">
        usage unknown
      </p>
    );
  }
  const short = counts(usage, { input: 'in', output: 'out' });
  const long = counts(usage, { input: 'input', output: 'output' });
  return (
    <p
      data-testid="turn-usage"
      className="turn-usage"
      title={`Token usage: ${long.map(([n, label]) => `${format(n)} ${label}`).join(', ')}`}
    >
      {short.map(([n, label]) => `${format(n)} ${label}`).join(' · ')}
    </p>
  );
}

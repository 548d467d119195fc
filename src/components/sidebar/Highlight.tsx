import type { ReactNode } from 'react';
import type { Highlighted } from '../../state/domain/conversationSearch.ts';

/** Text with its matching parts in `<mark>`. */
export function Highlight({ text, ranges }: Highlighted) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `ms`; an empty string passes at once (clearing is never late). */
export function useDebouncedValue(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (value === '') {
      setSettled('');
      return;
    }
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return value === '' ? '' : settled;
}

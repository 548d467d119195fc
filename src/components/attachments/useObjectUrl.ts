import { useEffect, useState } from 'react';

/**
 * An object URL for `blob` while the component shows it: made after render and revoked when the blob
 * changes or the component goes away, so no image's bytes stay pinned in memory once it is off the page.
 */
export function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

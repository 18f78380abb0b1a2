import { useState } from 'react';

/**
 * A record's data as its edit form opened with it, kept while the form stays open on that record
 * (`key`), whatever the live query returns since (a pull, another tab, an acknowledgement). The
 * form is filled from it and saves against it, so a save carries only what was typed and never
 * reverts what changed underneath. Undefined until the record is loaded.
 */
export function useDataAtOpen<T>(key: string, data: T | undefined): T | undefined {
  const [opened, setOpened] = useState<{ key: string; data: T } | null>(null);
  if (data === undefined) return opened?.key === key ? opened.data : undefined;
  if (opened === null || opened.key !== key) {
    // Set during render (React's pattern for state derived from props): this render uses it too.
    setOpened({ key, data });
    return data;
  }
  return opened.data;
}

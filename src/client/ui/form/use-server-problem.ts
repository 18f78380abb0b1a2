import { useEffect } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { Problem } from './problem-banner';

/**
 * Puts the server's field messages of a parked record beside the fields (once, on open), so the
 * technician sees exactly what to fix. `mapPath` turns a payload path into a form field name.
 */
export function useServerProblem<T extends FieldValues>(
  problem: Problem,
  setError: UseFormSetError<T>,
  mapPath: (path: string) => string = (p) => p,
): void {
  useEffect(() => {
    for (const f of problem?.fields ?? []) {
      setError(mapPath(f.path) as Path<T>, { type: 'server', message: f.message });
    }
    // Only when the problem itself changes: re-applying on every render would undo the user's fixes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [problem]);
}

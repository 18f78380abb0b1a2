import { createContext, useContext } from 'react';
import type { TraplineDb } from './database';

/** The signed-in user's database. Provided by the app once someone is signed in. */
export const DbContext = createContext<TraplineDb | null>(null);

export function useDb(): TraplineDb {
  const db = useContext(DbContext);
  if (!db) throw new Error('useDb outside a signed-in DbContext');
  return db;
}

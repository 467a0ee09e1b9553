/** A stored value the UI watches: read now, and read again whenever what it read changes (Dexie's liveQuery). */
import { liveQuery } from "dexie";

/** Subscribe to get the value now and after each change; ui/data/use-live.ts is the React side. */
export interface Live<T> {
  subscribe(next: (value: T) => void, error: (error: unknown) => void): { unsubscribe(): void };
}

/** `query` run now and again after every write that touches what it read (in this tab or another). */
export function live<T>(query: () => T | Promise<T>): Live<T> {
  return liveQuery(query);
}

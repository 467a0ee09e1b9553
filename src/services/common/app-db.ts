/** Binds a service function's database argument to the app's database, for the `*-instance.ts` files the UI calls. */
import type { CutpointDb } from "../../db/index.ts";
import { db } from "../../db/instance.ts";

/** `f` with its first argument (the database) given: the app's. Services only: the UI calls what it returns. */
export function onAppDb<A extends unknown[], R>(f: (db: CutpointDb, ...args: A) => R): (...args: A) => R {
  return (...args) => f(db, ...args);
}

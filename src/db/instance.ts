/** The app's one database connection (opened lazily by Dexie on first use). */
import { createDb } from "./schema.ts";

export const db = createDb();

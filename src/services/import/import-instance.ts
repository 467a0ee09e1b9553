/** Importing a file into the app database, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import { parseFile, questionsFor } from "./import-service.ts";

export type { SessionRow } from "../../db/schema.ts";

export const appImport = { parseFile: onAppDb(parseFile), questionsFor: onAppDb(questionsFor) };

/** Forks of the app's sessions, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import { forkToNewSession } from "./fork-service.ts";

export const forkSession = onAppDb(forkToNewSession);

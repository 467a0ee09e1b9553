/** The system prompt of the app's sessions, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import { saveSessionPrompt, sessionPrompt } from "./system-prompt-service.ts";

export const appSystemPrompt = { read: onAppDb(sessionPrompt), save: onAppDb(saveSessionPrompt) };

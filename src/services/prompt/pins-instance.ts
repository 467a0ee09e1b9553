/** The pins of the app's sessions, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import { changePin } from "./pins-service.ts";

export const appPins = { change: onAppDb(changePin) };

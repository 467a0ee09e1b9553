/** Masking tool outputs in the app's sessions, for the UI (which never touches the database itself). */
import { onAppDb } from "../common/app-db.ts";
import { maskToolOutputs, unmaskToolOutputs } from "./masking-service.ts";

export const appMasking = { mask: onAppDb(maskToolOutputs), unmask: onAppDb(unmaskToolOutputs) };

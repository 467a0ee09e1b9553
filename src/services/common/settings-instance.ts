/** The app's key/value settings watched live, for the UI (which reads and normalizes what it shows). */
import { db } from "../../db/instance.ts";
import { getSetting } from "../../db/settings-repo.ts";
import { type Live, live } from "./live.ts";

/** The stored value of the setting `key` (undefined when it is not set). */
export function watchSetting(key: string): Live<unknown> {
  return live(() => getSetting<unknown>(db, key));
}

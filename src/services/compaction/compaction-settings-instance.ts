/** The compaction settings of the app database, for the UI (live reads: services/common/settings-instance.ts). */
import { onAppDb } from "../common/app-db.ts";
import {
  loadCompactionSettings,
  saveCompactionSettings,
  saveSessionCompactionSettings,
} from "./compaction-settings.ts";

export const appCompactionSettings = {
  load: onAppDb(loadCompactionSettings),
  save: onAppDb(saveCompactionSettings),
  saveForSession: onAppDb(saveSessionCompactionSettings),
};

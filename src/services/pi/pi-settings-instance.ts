/** Importing pi's settings over the app database, for the UI (which never touches the database itself). */
import { db } from "../../db/instance.ts";
import { loadProviderSettings } from "../agent/agent-settings.ts";
import { loadCompactionSettings } from "../compaction/compaction-settings.ts";
import { applyPiImport, type PiImportFiles, type PiImportPlan, planPiImport } from "./pi-settings-import.ts";

export const piSettings = {
  /** What importing the files would change in the settings as they are now. */
  async preview(files: PiImportFiles) {
    const [provider, compaction] = await Promise.all([loadProviderSettings(db), loadCompactionSettings(db)]);
    return planPiImport(files, { provider, compaction });
  },
  apply: (plan: PiImportPlan) => applyPiImport(db, plan),
};

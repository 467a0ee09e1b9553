/** The model provider settings over the app database, for the UI: watched live, and saved. */
import { db } from "../../db/instance.ts";
import { live } from "../common/live.ts";
import { loadProviderSettings, type ProviderSettings, saveProviderSettings } from "./agent-settings.ts";

export const providerSettings = {
  load: () => loadProviderSettings(db),
  watch: () => live(() => loadProviderSettings(db)),
  save: (next: ProviderSettings) => saveProviderSettings(db, next),
};

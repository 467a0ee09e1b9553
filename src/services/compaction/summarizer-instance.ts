/**
 * The summarizer and its instructions over the app database, for the UI (which never touches the
 * database or the network itself): its endpoint, the endpoint's models, the summary instructions.
 */
import type { SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { listModels } from "../../llm/connection.ts";
import { onAppDb } from "../common/app-db.ts";
import { live } from "../common/live.ts";
import { resolveSummarizer } from "./compaction-endpoint.ts";
import { loadSummaryInstructions, saveSummaryInstructions } from "./summary-instructions.ts";

export const appSummarizer = {
  resolve: onAppDb(resolveSummarizer),
  /** The models the summarizer's endpoint lists (undefined: no endpoint set up, or the listing failed). */
  async models(path: readonly SessionEntry[]): Promise<string[] | undefined> {
    const r = await resolveSummarizer(db, path, null);
    if (!r.ok) return undefined;
    const listed = await listModels(r.endpoint);
    return listed.ok ? listed.models : undefined;
  },
};

export const appSummaryInstructions = {
  load: onAppDb(loadSummaryInstructions),
  /** The instructions in force for the session, live. */
  watchResolved: (sessionId: string) =>
    live(() => loadSummaryInstructions(db, sessionId).then((r) => r.resolved)),
  save: onAppDb(saveSummaryInstructions),
};

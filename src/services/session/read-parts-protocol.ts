/** The parts a session read yields (services/session/read-parts.ts, and an import's handover). */
import type { SessionEntry } from "../../core/session/types.ts";

/**
 * A part of what a read yields, in order: the decoded JSONL text of whole lines of chunk `seq`
 * (for the page to parse), entries already parsed (by the import, see services/import/import-service.ts),
 * or "replaced" (the read ends: the session was replaced meanwhile).
 */
export type ReadPart =
  | { kind: "text"; text: string; seq: number }
  | { kind: "entries"; entries: SessionEntry[]; seq: number }
  | { kind: "replaced" };

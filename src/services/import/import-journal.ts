/**
 * Imports under way, written down (one settings row each) so that an import a crash or a closed
 * tab cut off is named on the next start. Each import holds a Web Lock while it runs: a row whose
 * lock no tab holds is a leftover. The session is stored in one transaction, so a leftover either
 * stored nothing or (cut off after its save) stored the whole session.
 */
import {
  type CutpointDb,
  deleteSetting,
  getSession,
  setSetting,
  settingsWithPrefix,
} from "../../db/index.ts";
import type { LockManagerLike, LockQuery } from "../agent/session-run.ts";
import { newSessionId } from "../common/ids.ts";
import type { ImportPhase } from "./import-service.ts";

export type JournalPhase = ImportPhase | "waiting";

export interface ImportRecord {
  id: string;
  fileName: string;
  bytes: number;
  startedAt: number;
  phase: JournalPhase;
  /** The session id the save writes (set when the save starts). */
  sessionId?: string;
}

/** What a leftover import left: nothing, or the whole session (saved just before the cut). */
export interface LeftoverImport {
  record: ImportRecord;
  stored: boolean;
}

export interface ImportMark {
  /** Records the phase the import is in (only changes are written); resolves once written. */
  phase(phase: JournalPhase, sessionId?: string): Promise<void>;
  /** The import is over (stored, refused or cancelled): its row goes. */
  end(): Promise<void>;
}

const PREFIX = "import.running.";
const lockOf = (id: string) => `cutpoint-import-${id}`;

/** Writes the row of an import that starts, and holds its lock until `end`. */
export function beginImport(
  db: CutpointDb,
  file: { name: string; size: number },
  deps: { locks: LockManagerLike | null; now: number },
): ImportMark {
  const record: ImportRecord = {
    id: newSessionId(),
    fileName: file.name,
    bytes: file.size,
    startedAt: deps.now,
    phase: "read",
  };
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  void deps.locks?.request(lockOf(record.id), { ifAvailable: false }, () => held).catch(() => {});
  // Writes in order; a failed write (storage full) only loses the notice, never the import.
  let chain: Promise<unknown> = setSetting(db, PREFIX + record.id, { ...record });
  return {
    async phase(phase, sessionId) {
      if (phase !== record.phase || (sessionId !== undefined && sessionId !== record.sessionId)) {
        record.phase = phase;
        if (sessionId !== undefined) record.sessionId = sessionId;
        const row = { ...record };
        chain = chain.then(() => setSetting(db, PREFIX + record.id, row));
      }
      await chain;
    },
    async end() {
      await chain.then(() => deleteSetting(db, PREFIX + record.id));
      release();
    },
  };
}

/**
 * The imports that were cut off (their rows, with no tab holding their lock), each with what it
 * left; their rows are removed, so each is named once.
 */
export async function takeLeftoverImports(
  db: CutpointDb,
  query: LockQuery | null,
): Promise<LeftoverImport[]> {
  const rows = await settingsWithPrefix(db, PREFIX);
  if (rows.length === 0) return [];
  let held = new Set<string>();
  try {
    held = new Set(((await query?.())?.held ?? []).map((l) => l.name ?? ""));
  } catch {
    // No lock information: every row counts as cut off.
  }
  const out: LeftoverImport[] = [];
  for (const row of rows) {
    const record = row.value as ImportRecord;
    if (held.has(lockOf(record.id))) continue;
    const session = record.sessionId ? await getSession(db, record.sessionId) : undefined;
    out.push({ record, stored: session !== undefined && session.updatedAt >= record.startedAt });
    await deleteSetting(db, row.key);
  }
  return out;
}

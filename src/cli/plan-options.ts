/** The compaction plan a CLI command asks for: `--keep-recent-tokens`, `--reserve-tokens` and `--leaf-line` read, the file read and planned. */
import {
  type CompactionPlan,
  DEFAULT_COMPACTION_SETTINGS,
  planCompaction,
} from "../core/compaction/index.ts";
import { parseCount, readSessionFile } from "./command.ts";
import { sessionPath } from "./leaf-paths.ts";

/** The plan, or why not: `usage` (bad arguments) or `failure` (the file). */
export type PlanFromOptions =
  | { ok: true; plan: CompactionPlan; leafLine: number | null; keepRecentTokens: number }
  | { ok: false; usage: string }
  | { ok: false; failure: string };

export async function planFromOptions(
  options: Map<string, string | true>,
  file: string,
): Promise<PlanFromOptions> {
  const count = (name: string, fallback: number) => parseCount(name, options.get(name), fallback);
  const keep = count("--keep-recent-tokens", DEFAULT_COMPACTION_SETTINGS.keepRecentTokens);
  if (!keep.ok) return { ok: false, usage: keep.error };
  const reserve = count("--reserve-tokens", DEFAULT_COMPACTION_SETTINGS.reserveTokens);
  if (!reserve.ok) return { ok: false, usage: reserve.error };
  const leafOpt = options.get("--leaf-line");
  const leaf = leafOpt === undefined ? undefined : parseCount("--leaf-line", leafOpt, 0);
  if (leaf && !leaf.ok) return { ok: false, usage: leaf.error };
  const session = await readSessionFile(file);
  if (!session.ok) return { ok: false, failure: session.error };
  const sp = sessionPath(session.value, leaf?.ok ? leaf.value : undefined);
  if (!sp.ok) return { ok: false, failure: `${file}: ${sp.error}` };
  const planned = planCompaction(sp.value.path, {
    keepRecentTokens: keep.value,
    reserveTokens: reserve.value,
  });
  if (!planned.ok) return { ok: false, failure: `${file}: ${planned.reason}` };
  return { ok: true, plan: planned.plan, leafLine: sp.value.leafLine, keepRecentTokens: keep.value };
}

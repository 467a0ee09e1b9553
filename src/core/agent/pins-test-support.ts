/** For tests: a session with a pinned rule that Cutpoint compacts twice (offline summaries). */
import { generateOfflineCompaction } from "../compaction/offline-summary.ts";
import { planCompaction } from "../compaction/plan.ts";
import { buildCompactionEntry } from "../compaction/summarize.ts";
import { buildSessionContext } from "../session/context.ts";
import { assistant, msg, TS, user } from "../session/test-builders.ts";
import type { SessionEntry } from "../session/types.ts";
import { type PinChange, pinPatch } from "./pins.ts";
import { systemMessageEntry } from "./settings.ts";

export const PINNED_RULE =
  "Never touch\tvendor/  — always run `npm test -- --run` before a commit.\n  Ünïcode ✓";

const long = (tag: string) => `${tag} ${"words to summarize later ".repeat(80)}`;

/** Appends `change` to `path` as a system message (throws on a refused change). */
export function withPin(path: SessionEntry[], change: PinChange, id: string): SessionEntry[] {
  const p = pinPatch(buildSessionContext(path).systemMessage, change);
  if (!p.ok) throw new Error(p.error);
  const parent = path[path.length - 1]?.id ?? null;
  return [...path, systemMessageEntry(parent, { content: "", sections: p.sections }, id, Date.parse(TS))];
}

/** Two turns after `path`, then a compaction that keeps little (offline summary). */
export function turnsThenCompact(path: SessionEntry[], tag: string): SessionEntry[] {
  let out = [...path];
  for (let i = 0; i < 2; i++) {
    const parent = out[out.length - 1]?.id ?? null;
    out = [...out, msg(`${tag}u${i}`, parent, user(long(`${tag} ask ${i}`)))];
    out = [...out, msg(`${tag}a${i}`, `${tag}u${i}`, assistant(long(`${tag} answer ${i}`)))];
  }
  const planned = planCompaction(out, { keepRecentTokens: 200, reserveTokens: 16384 });
  if (!planned.ok) throw new Error(planned.reason);
  const generated = generateOfflineCompaction(planned.plan);
  if (!generated.ok) throw new Error(generated.error);
  const entry = buildCompactionEntry({
    ...generated.fields,
    id: `${tag}c`,
    parentId: out[out.length - 1]!.id,
    timestamp: TS,
  });
  return [...out, entry];
}

/** A session: a prompt, a first request, the pin, then two compactions. */
export function pinnedTwiceCompacted(): SessionEntry[] {
  let path: SessionEntry[] = [
    systemMessageEntry(null, { content: "", sections: { prompt: "You are a test agent." } }, "s0", 0),
    msg("u0", "s0", user("the original request")),
    msg("a0", "u0", assistant("on it")),
  ];
  path = withPin(path, { kind: "add", text: PINNED_RULE, id: "rule" }, "p1");
  path = turnsThenCompact(path, "one");
  return turnsThenCompact(path, "two");
}

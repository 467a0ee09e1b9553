// Loads each session with pi 1.6's SessionManager and writes pi's view as src/conformance/references/<name>.json (run by Node 22).
// Usage: write-references.mjs <repo-root>. Also checks itself against the shared pi16 reference files.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import { piPackage, resetDeterminism, sessionManager } from "./pi-modules.mjs";
import { checkAgainstSharedPlans, checkAgainstSharedView } from "./self-check.mjs";
import { appendsAt, loadedSession, parsedLineNumbers, RESERVE_TOKENS, viewAt } from "./views.mjs";

const repoRoot = resolve(process.argv[2] ?? ".");
const shared = resolve(repoRoot, "..", "shared", "fixtures");
const sessionsDir = join(repoRoot, "src", "conformance", "sessions");
const referencesDir = join(repoRoot, "src", "conformance", "references");
const SHARED_PLANS = join(shared, "pi16", "before-compaction.pi16-plans.jsonl");

export const ALL_KEEPS = [1, 500, 2000, 20000, 40000];
const LARGE_KEEPS = [2000, 20000, 40000];
/** Above this many entries a session gets no per-line rows of its own (the 1003-line fixture uses the shared plans file). */
const PER_LINE_LIMIT = 200;

function sources() {
  const list = [];
  for (const file of readdirSync(sessionsDir).sort()) {
    if (file.endsWith(".jsonl")) list.push({ name: basename(file, ".jsonl"), path: join(sessionsDir, file) });
  }
  const pi16 = join(shared, "pi16");
  for (const file of readdirSync(pi16).sort()) {
    if (!file.endsWith(".jsonl") || file.includes(".pi16-plans")) continue;
    const name = basename(file, ".jsonl");
    list.push({
      name: `shared-pi16-${name}`,
      path: join(pi16, file),
      sharedView: join(pi16, `${name}.pi16-view.json`),
    });
  }
  list.push({
    name: "shared-pi-before-compaction",
    path: join(shared, "pi", "before-compaction.jsonl"),
    sharedPlans: SHARED_PLANS,
  });
  return list;
}

function labelsOf(loaded) {
  return [...loaded.sm.labelsById.entries()]
    .map(([targetId, label]) => ({ targetId, targetLine: loaded.line(targetId), label }))
    .sort((a, b) => (a.targetLine ?? 0) - (b.targetLine ?? 0) || a.targetId.localeCompare(b.targetId));
}

function stripExcerpts(view) {
  if (view.messages) for (const message of view.messages) delete message.excerpt;
  return view;
}

/** Pretty JSON, but every row of `lines` on one line (diff-friendly). */
function serialize(reference) {
  const { lines, ...rest } = reference;
  const head = JSON.stringify({ ...rest, lines: "\u0000LINES\u0000" }, null, 1);
  const rows =
    lines.length === 0 ? "[]" : `[\n${lines.map((row) => `  ${JSON.stringify(row)}`).join(",\n")}\n ]`;
  return `${head.replace('"\\u0000LINES\\u0000"', rows)}\n`;
}

function referenceFor(source, scratch) {
  const text = readFileSync(source.path, "utf8");
  const copy = join(scratch, `${source.name}.jsonl`);
  copyFileSync(source.path, copy);
  const headerVersion = (() => {
    try {
      const first = JSON.parse(text.slice(0, text.indexOf("\n")));
      return typeof first.version === "number" ? first.version : 1;
    } catch {
      return null;
    }
  })();
  resetDeterminism(`load:${source.name}`);
  const sm = sessionManager.SessionManager.open(copy, scratch);
  const loaded = loadedSession(sm, parsedLineNumbers(text));
  const entries = sm.getEntries();
  const leafId = sm.getLeafId();
  const large = entries.length > PER_LINE_LIMIT;
  const reference = {
    format: 1,
    pi: piPackage.version,
    source: relative(repoRoot, source.path),
    headerVersion,
    idsStable: headerVersion !== null && headerVersion >= 2,
    reserveTokens: RESERVE_TOKENS,
    entryCount: entries.length,
    sessionName: sm.getSessionName() ?? null,
    labels: labelsOf(loaded),
    leaf: { ...viewAt(loaded, leafId, ALL_KEEPS, "full"), ...appendsAt(loaded, leafId) },
    linesFrom: large ? relative(repoRoot, source.sharedPlans ?? "") : null,
    lines: [],
  };
  if (large) {
    if (!source.sharedPlans || !existsSync(source.sharedPlans))
      throw new Error(`${source.name}: no per-line reference`);
    const rows = entries.map((entry) => viewAt(loaded, entry.id, LARGE_KEEPS, "brief"));
    checkAgainstSharedPlans(source.name, rows, source.sharedPlans);
  } else {
    reference.lines = entries.map((entry) => ({
      ...stripExcerpts(viewAt(loaded, entry.id, ALL_KEEPS, "full")),
      compactionSystemMessage: appendsAt(loaded, entry.id).compactionSystemMessage,
    }));
  }
  if (source.sharedView) checkAgainstSharedView(source.name, reference.leaf, source.sharedView);
  return reference;
}

mkdirSync(referencesDir, { recursive: true });
for (const file of readdirSync(referencesDir)) if (file.endsWith(".json")) rmSync(join(referencesDir, file));
const scratch = mkdtempSync(join(tmpdir(), "cutpoint-pi16-refs-"));
try {
  for (const source of sources()) {
    const reference = referenceFor(source, scratch);
    writeFileSync(join(referencesDir, `${source.name}.json`), serialize(reference));
    console.log(
      `reference ${source.name}: ${reference.entryCount} entries, ${reference.lines.length} line rows`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

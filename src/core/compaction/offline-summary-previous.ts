/**
 * A previous summary read back into the sections of pi's structure, so that the offline summary
 * can update it section by section (as pi's update prompt asks of a model) instead of pasting it:
 * its goal, rules, finished work, decisions and context are kept; its in-progress work, blockers
 * and next steps are left for the newer range to restate. Headings a model invents ("Key Decisions
 * Made", "Completed Work", "User Preferences", "Key Files") are mapped to the nearest section;
 * tables become lines, code blocks are left out (their names stay in the file blocks and the
 * newer range), the offline notice and the file blocks are dropped.
 */

export type PreviousSection = "goal" | "constraints" | "done" | "open" | "decisions" | "context";

export type PreviousSummary = Record<PreviousSection, string[]>;

const NOTICE = /^_This summary was generated offline[^\n]*_$/;

function sectionOf(heading: string): PreviousSection | undefined {
  const h = heading
    .toLowerCase()
    .replace(/[*_`:]/g, "")
    .trim();
  if (/^(?:goals?|objective|task)\b/.test(h) || /^current task/.test(h)) return "goal";
  if (/constraint|preference|rules?\b|testing|conventions?/.test(h)) return "constraints";
  if (/^(?:done|completed|finished|progress)\b|completed work|work packages/.test(h)) return "done";
  if (/in progress|blocked|next steps?|to ?do|remaining|open (?:items|questions)/.test(h)) return "open";
  if (/decision/.test(h)) return "decisions";
  if (/context checkpoint|summary$/.test(h)) return undefined;
  return "context";
}

function tableRow(line: string): string | undefined {
  const cells = line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());
  if (cells.every((c) => /^:?-{2,}:?$/.test(c) || c === "")) return undefined;
  return cells.filter((c) => c !== "").join(" — ");
}

/** The previous summary's lines by section (list markers and check boxes dropped, headings of unknown sections kept as a lead). */
export function readPreviousSummary(text: string): PreviousSummary {
  const out: PreviousSummary = { goal: [], constraints: [], done: [], open: [], decisions: [], context: [] };
  const body = text.replace(/<(read|modified)-files>[\s\S]*?<\/\1-files>/g, "");
  let section: PreviousSection = "context";
  /** The level of the heading that named the section: an unknown heading below it stays in it. */
  let level = 0;
  let lead = "";
  let fence = false;
  let tableHeader = true;
  const context: { lead: string; item: string }[] = [];
  for (const raw of body.split("\n")) {
    if (/^\s*(?:```|~~~)/.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const line = raw.trim();
    if (line === "" || NOTICE.test(line) || line === "---") continue;
    const heading = /^(#{1,6})\s+(.+?)\s*#*$/.exec(line);
    if (heading) {
      const name = heading[2]!.replace(/[*_`]/g, "").trim();
      const depth = heading[1]!.length;
      const s = sectionOf(name);
      if (s === undefined) continue;
      if (s === "context" && level > 0 && depth > level && section !== "context") continue;
      section = s;
      level = depth;
      lead = s === "context" && !/critical context/i.test(name) ? name : "";
      tableHeader = true;
      continue;
    }
    let item = line;
    if (line.startsWith("|")) {
      const row = tableRow(line);
      if (row === undefined) continue;
      if (tableHeader) {
        tableHeader = false;
        continue;
      }
      item = row;
    } else item = line.replace(/^(?:[-*+]|\d+[.)])\s+/, "").replace(/^\[[ xX]\]\s+/, "");
    // A bold line alone ("**New files:**") is a lead for what follows, not an item.
    if (/^\*\*[^*]+\*\*:?$/.test(item)) continue;
    if (item.startsWith("**Turn Context")) break;
    if (section === "context") context.push({ lead, item });
    else out[section].push(item);
  }
  // Context lines under one heading become one line: "Key Files: a; b; c".
  for (const { lead, item } of context) {
    const last = out.context.at(-1);
    if (lead && last?.startsWith(`${lead}: `)) out.context[out.context.length - 1] = `${last}; ${item}`;
    else out.context.push(lead ? `${lead}: ${item}` : item);
  }
  return out;
}

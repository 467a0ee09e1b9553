/**
 * Commands for the coverage check: which tool calls run shell commands, and the salient part of a
 * command line (what a summary would name: `npm run check`, not `cd /repo && npm run check 2>&1 |
 * tail -20`). Read-only exploration (ls, cat, grep, git status, ...) is not an item.
 */

/** Tool names whose `command` (or `cmd`) argument is a shell command line. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set([
  "bash",
  "shell",
  "sh",
  "exec",
  "execute",
  "run_command",
  "terminal",
  "powershell",
]);

const EXPLORATION = new Set(
  (
    "ls ll la cat bat head tail grep egrep rg ag find fd wc echo printf pwd cd which whereis type tree " +
    "file stat du df less more sort uniq cut tr awk date whoami env printenv true false sleep clear " +
    "realpath dirname basename jq diff cmp"
  ).split(" "),
);
/** Commands that move files around: their path arguments are file items, not commands. */
const FILE_COMMANDS = new Set("mv cp rm rmdir mkdir touch ln chmod chown unlink".split(" "));
const GIT_READS = new Set(
  "status diff log show branch blame rev-parse ls-files remote describe shortlog reflog".split(" "),
);

/** The command line of a tool call, or undefined when the call runs no shell command. */
export function toolCallCommand(name: unknown, args: unknown): string | undefined {
  if (typeof name !== "string" || !COMMAND_TOOLS.has(name)) return undefined;
  if (!args || typeof args !== "object") return undefined;
  const a = args as { command?: unknown; cmd?: unknown };
  const c = typeof a.command === "string" ? a.command : typeof a.cmd === "string" ? a.cmd : undefined;
  return c && c.trim() !== "" ? c : undefined;
}

function program(token: string): string {
  return token.slice(token.lastIndexOf("/") + 1).toLowerCase();
}

function isExploration(tokens: readonly string[]): boolean {
  const p = program(tokens[0] ?? "");
  if (EXPLORATION.has(p)) return true;
  if (p === "sed") return tokens.includes("-n");
  if (p === "git") {
    const sub = tokens.slice(1).find((t) => !t.startsWith("-"));
    return sub === undefined || GIT_READS.has(sub);
  }
  return false;
}

const SPACES = /\s+/;
const SPACE = /\s/;

/** Where the first token that starts with " ' ` $ or ( begins (at the start or after a space). */
const QUOTED_TOKEN = /(?:^|\s)["'`$(]/;
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const DUP_REDIRECT = /\s*\d*>&\d+/g;
const FILE_REDIRECT = /\s*(?:\d*>>?|<)\s*\S+/g;
const HEREDOC_REDIRECT = /\s*<<-?\s*\S+/g;

/** A token that starts a quoted or substituted argument: " ' ` $ ( */
function opensQuote(token: string): boolean {
  const c = token.charCodeAt(0);
  return c === 34 || c === 39 || c === 96 || c === 36 || c === 40;
}

/** One stage: redirections, leading env assignments and everything from the first quoted argument dropped. */
function salientStage(stage: string): string[] {
  const cleaned =
    stage.includes(">") || stage.includes("<")
      ? stage.replace(DUP_REDIRECT, " ").replace(FILE_REDIRECT, " ").replace(HEREDOC_REDIRECT, " ")
      : stage;
  // Tokens from the first quoted one on are dropped (env assignments and sudo never start with a
  // quote): split only what comes before it.
  const quoted = cleaned.search(QUOTED_TOKEN);
  const tokens = (quoted < 0 ? cleaned : cleaned.slice(0, quoted)).split(SPACES);
  // split() gives empty strings only for spaces at either end.
  if (tokens[0] === "") tokens.shift();
  if (tokens.length > 0 && tokens[tokens.length - 1] === "") tokens.pop();
  while (tokens.length > 0 && ENV_ASSIGNMENT.test(tokens[0]!)) tokens.shift();
  if (tokens[0] === "sudo" || tokens[0] === "time" || tokens[0] === "exec") tokens.shift();
  let cut = 0;
  while (cut < tokens.length && !opensQuote(tokens[cut]!)) cut++;
  const kept = cut === tokens.length ? tokens : tokens.slice(0, cut);
  while (kept.length > 1 && kept[kept.length - 1]!.startsWith("-")) kept.pop();
  return kept;
}

const MAX_COMMAND_CHARS = 100;
const COMPOUND = new Set(
  "for while until if case do done then else elif fi esac { } [ [[ function ( )".split(" "),
);

/**
 * The first pipeline stage of each segment of a script: splits at newlines, `&&`, `||`, `;` and
 * `|` outside quotes and `$(...)`; a heredoc ends the script (its body is content).
 */
const HEREDOC = /<<-?\s*\S/;

/** Index of the quote closing the one at `open` (a backslash escapes inside double quotes), or the end. */
function closingQuote(script: string, open: number): number {
  const q = script[open]!;
  let at = script.indexOf(q, open + 1);
  if (q === '"')
    while (at > 0) {
      let slashes = 0;
      while (script[at - 1 - slashes] === "\\") slashes++;
      if (slashes % 2 === 0) break;
      at = script.indexOf(q, at + 1);
    }
  return at < 0 ? script.length : at;
}

/** Adds `script[start..end]`, trimmed, to `out` unless it is empty or a later pipeline stage (never kept, not even cut out). */
function pushSegment(out: string[], script: string, start: number, end: number, piped: boolean): void {
  if (piped) return;
  const part = script.slice(start, end).trim();
  if (part !== "") out.push(part);
}

/** `segments` into `out` (no closure per call: this runs for every command of a range). */
function collectSegments(commandLine: string, out: string[]): void {
  // (A one-character search first: much faster than looking for two characters.)
  const continued = commandLine.includes("\\") && commandLine.includes("\\\n");
  const script = continued ? commandLine.replace(/\\\n/g, " ") : commandLine;
  let start = 0;
  let piped = false;
  let depth = 0;
  const mayHeredoc = script.includes("<") && script.includes("<<");
  // Character codes: ' " ` $ ( ) & | ; and newline.
  for (let i = 0; i < script.length; i++) {
    const c = script.charCodeAt(i);
    if (c === 39 || c === 34 || c === 96) {
      i = closingQuote(script, i);
      continue;
    }
    if (c === 36 && script.charCodeAt(i + 1) === 40) depth++;
    else if (c === 41 && depth > 0) depth--;
    if (depth > 0) continue;
    if ((c === 38 || c === 124) && script.charCodeAt(i + 1) === c) {
      pushSegment(out, script, start, i, piped);
      piped = false;
      start = ++i + 1;
    } else if (c === 59 || c === 10) {
      const heredoc = mayHeredoc && HEREDOC.test(script.slice(start, i));
      pushSegment(out, script, start, i, piped);
      piped = false;
      start = i + 1;
      if (heredoc && c === 10) return;
    } else if (c === 124) {
      pushSegment(out, script, start, i, piped);
      piped = true;
      start = i + 1;
    }
  }
  pushSegment(out, script, start, script.length, piped);
}

/** The segments of a command line (emptied and refilled by each call; nothing here is reentrant). */
const segmentScratch: string[] = [];

/**
 * The salient commands of a command line: each segment's first pipeline stage, without `cd`,
 * exports, shell keywords, redirections and quoted arguments, exploration left out.
 */
export function salientCommands(commandLine: string): string[] {
  return commandParts(commandLine).commands;
}

const SHELL_CHARS = /[*?$"'`<>&]/;
const TRAILING_SLASHES = /\/+$/;

/** salientCommands, plus the path arguments of file commands (mv, rm, mkdir, ...). */
export function commandParts(commandLine: string): { commands: string[]; paths: string[] } {
  const commands: string[] = [];
  const paths: string[] = [];
  collectCommandParts(commandLine, commands, paths);
  return { commands, paths };
}

/** `commandParts` into the caller's lists (`out` gets no command twice from this line). */
export function collectCommandParts(commandLine: string, out: string[], paths: string[]): void {
  const first = out.length;
  segmentScratch.length = 0;
  collectSegments(commandLine, segmentScratch);
  for (const stage of segmentScratch) {
    if (stage.startsWith("#")) continue;
    // A stage is trimmed: it has more than one word exactly when it has a space inside.
    const space = stage.search(SPACE);
    const head = program(space < 0 ? stage : stage.slice(0, space));
    if (EXPLORATION.has(head) || head === "cd") continue;
    if (FILE_COMMANDS.has(head)) {
      for (const a of stage.split(SPACES).slice(1))
        if (!a.startsWith("-") && !SHELL_CHARS.test(a) && /[/.]/.test(a) && /[a-z]/i.test(a))
          paths.push(a.replace(TRAILING_SLASHES, ""));
      continue;
    }
    const tokens = salientStage(stage);
    if (tokens.length === 0) continue;
    const p = program(tokens[0]!);
    if (p === "cd" || p === "export" || p === "set" || p === "source" || p === "." || COMPOUND.has(p))
      continue;
    if (tokens.length === 1 && space >= 0) continue;
    if (isExploration(tokens)) continue;
    let text = tokens.join(" ");
    if (text.length > MAX_COMMAND_CHARS) {
      const cut = text.slice(0, MAX_COMMAND_CHARS);
      text = cut.slice(0, Math.max(cut.lastIndexOf(" "), 1));
    }
    if (out.indexOf(text, first) < 0) out.push(text);
  }
}

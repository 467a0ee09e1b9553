/**
 * Glob patterns for `find` and grep's `glob`: `*` (within a segment), `**` (any depth), `?`,
 * `[abc]` / `[!abc]`, `{a,b}`. A pattern without "/" matches the file's base name at any depth
 * (like fd/ripgrep); a pattern with "/" matches the path relative to the search directory.
 */

function escapeRe(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

export function globToRegExp(pattern: string): RegExp {
  let re = "";
  let braceDepth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") {
      if (pattern[i + 1] === "*") {
        const atSegmentStart = i === 0 || pattern[i - 1] === "/";
        const thenSlash = pattern[i + 2] === "/";
        i++;
        if (atSegmentStart && thenSlash) {
          re += "(?:.*/)?";
          i++;
        } else re += ".*";
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        re += `[${body.replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      braceDepth++;
      re += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      re += ")";
    } else if (c === "," && braceDepth > 0) re += "|";
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}

/** A matcher for relative paths, following the base-name rule above. */
export function globMatcher(pattern: string): (relativePath: string) => boolean {
  const trimmed = pattern.replace(/^\.\//, "").replace(/^\/+/, "");
  const re = globToRegExp(trimmed);
  if (trimmed.includes("/")) return (p) => re.test(p);
  return (p) => re.test(p.slice(p.lastIndexOf("/") + 1));
}

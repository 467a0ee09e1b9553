/** A text as one line for a row, a title or an excerpt: whitespace runs become one space, cut to a length with an ellipsis. Pure. */

/**
 * `text` with each run of whitespace as one space, trimmed, and cut to `max` characters (the last
 * one an ellipsis) when longer. Only the first `4 * max` characters are looked at when that is
 * enough to fill the line (a 1 MB tool output is not flattened whole for a 240-character row).
 */
export function oneLine(text: string, max: number): string {
  const head = text.length > max * 4 ? flat(text.slice(0, max * 4)) : undefined;
  // A head mostly of whitespace may flatten short: then the whole text decides.
  const line = head !== undefined && head.length > max ? head : flat(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

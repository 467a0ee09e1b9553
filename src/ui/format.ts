/** Display formatting (sizes, dates, token counts). */

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "?";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  if (tokens < 1_000_000) return `${Math.round(tokens / 1000)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

/** One formatter for all counts: `toLocaleString` builds a new one per call (slow in lists). */
const countFmt = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return countFmt.format(n);
}

/** A count with its noun: "1 entry", "2 entries". */
export function formatCountOf(n: number, one: string, many = `${one}s`): string {
  return `${countFmt.format(n)} ${n === 1 ? one : many}`;
}

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const timeFmt = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: false,
});
const dayFmt = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });

export function formatDate(ms: number): string {
  return Number.isFinite(ms) ? dateFmt.format(ms) : "";
}

/** A row timestamp: the time, with the date when it is not today. */
export function formatEntryTime(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return "";
  const d = new Date(t);
  const today = new Date();
  if (d.toDateString() === today.toDateString()) return timeFmt.format(d);
  const day = d.getFullYear() === today.getFullYear() ? dayFmt.format(d) : d.toISOString().slice(0, 10);
  return `${day} ${timeFmt.format(d)}`;
}

/** Formatting for the compaction UI: "142k", "19,842", percentages, plurals, paths shortened in the middle. */
import { formatCountOf } from "../format.ts";

export function kTokens(n: number): string {
  if (!Number.isFinite(n)) return "?";
  const a = Math.abs(n);
  if (a < 1000) return String(Math.round(n));
  if (a < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (a < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

const NUMBER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function fullTokens(n: number): string {
  return NUMBER.format(Math.round(n));
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

/** "pi chars/4" or "tokenizer o200k_base". */
export function estimatorLabel(id: string): string {
  if (id === "pi") return "pi chars/4";
  if (id.startsWith("tokenizer:")) return `tokenizer ${id.slice("tokenizer:".length)}`;
  return id;
}

/** USD with enough digits for small amounts. */
export function usd(n: number): string {
  if (n < 0.01) return `$${n.toFixed(4)}`;
  if (n < 1) return `$${n.toFixed(3)}`;
  return `$${n.toFixed(2)}`;
}

/** "1 message", "1,204 messages" (thousands separators; the plural given or word + "s"). */
export function plural(n: number, word: string, many = `${word}s`): string {
  return formatCountOf(Math.round(n), word, many);
}

/** A path shortened in the middle ("src/…/deep/file.ts") to about `max` characters. */
export function middleEllipsis(text: string, max = 48): string {
  if (text.length <= max) return text;
  const keep = max - 1;
  const tail = Math.ceil(keep * 0.6);
  return `${text.slice(0, keep - tail)}…${text.slice(text.length - tail)}`;
}

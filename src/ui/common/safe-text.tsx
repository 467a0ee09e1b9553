/**
 * Text from content, files, names and paths as the page shows it: isolated (`<bdi>`, so it never
 * reorders the app's own words) and with every bidi control or invisible character shown as a
 * styled mark (invisible.ts). Use it wherever such text is rendered; `markInvisible` for attributes.
 */
import { memo } from "react";
import { hasInvisible, splitInvisible } from "./invisible.ts";
import "./content.css";

/** Beyond this many marks in one text, they are shown as plain text (no element each). */
const MAX_MARK_ELEMENTS = 2_000;

export const SafeText = memo(function SafeText({
  text,
  className,
}: {
  text: string;
  className?: string | undefined;
}) {
  const pieces = splitInvisible(text);
  if (pieces.length === 1 && typeof pieces[0] === "string") return <bdi className={className}>{text}</bdi>;
  const marks = pieces.reduce((n, p) => n + (typeof p === "string" ? 0 : 1), 0);
  if (marks > MAX_MARK_ELEMENTS) {
    return (
      <bdi className={className}>{pieces.map((p) => (typeof p === "string" ? p : p.mark)).join("")}</bdi>
    );
  }
  return (
    <bdi className={className}>
      {pieces.map((p, i) =>
        typeof p === "string" ? (
          p
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed text.
          <span key={i} className="invisible-mark" title={p.title} data-invisible={p.mark}>
            {p.mark}
          </span>
        ),
      )}
    </bdi>
  );
});

/** The distinct marks in a text, with how often each occurs ("⟨U+202E⟩ ×2"). */
function markSummary(text: string): string {
  const counts = new Map<string, number>();
  for (const p of splitInvisible(text))
    if (typeof p !== "string") counts.set(p.mark, (counts.get(p.mark) ?? 0) + 1);
  return [...counts].map(([mark, n]) => (n > 1 ? `${mark} ×${n}` : mark)).join(", ");
}

/**
 * Under a text field whose value holds hidden characters (a field cannot show marks): a short
 * value as the page shows it elsewhere, marks included; a long one as the list of its marks.
 */
export function HiddenCharsNote({ value }: { value: string }) {
  if (!hasInvisible(value)) return null;
  return (
    <span className="hidden-chars-note" role="note" data-testid="hidden-chars-note">
      Holds hidden characters: {value.length <= 160 ? <SafeText text={value} /> : markSummary(value)}
    </span>
  );
}

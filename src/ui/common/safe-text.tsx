/**
 * Text from content, files, names and paths as the page shows it: isolated (`<bdi>`, so it never
 * reorders the app's own words) and with every bidi control or invisible character shown as a
 * styled mark (invisible.ts). Use it wherever such text is rendered; `markInvisible` for attributes.
 */
import { memo } from "react";
import { splitInvisible } from "./invisible.ts";
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

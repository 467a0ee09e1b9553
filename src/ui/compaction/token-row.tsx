/**
 * One row of the token timeline: its band (pattern and label, not only colour), icon and excerpt
 * (a summary opens on click), its token bar on the context axis and its size. Memoized: moving the
 * cut re-renders only the rows whose band or offset changed.
 */
import { memo } from "react";
import type { SessionEntry } from "../../core/session/types.ts";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { describeEntry } from "../timeline/entry-kind.ts";
import { fullTokens, kTokens } from "./format-tokens.ts";
import { BAND_LABEL, BAND_SHORT, type Band } from "./timeline-bands.ts";

export interface TokenRowProps {
  index: number;
  entry: SessionEntry;
  tokens: number;
  /** Offset from the list's top, px (rows after the cut leave room for its handle). */
  top: number;
  band: Band;
  inContext: boolean;
  /** A valid cut point. */
  notch: boolean;
  /** Just revealed (a coverage item's "entry"). */
  flash: boolean;
  /** Where the bar starts and how wide it is, as shares of the axis. */
  left: number;
  width: number;
  /** The running total of the context up to this row. */
  running: number;
  onOpenSummary: (entryId: string) => void;
}

export const TokenRow = memo(function TokenRow({
  index,
  entry,
  tokens,
  top,
  band,
  inContext,
  notch,
  flash,
  left,
  width,
  running,
  onOpenSummary,
}: TokenRowProps) {
  const d = describeEntry(entry);
  return (
    <li
      className={`cp-row band-${band}${notch ? " notch" : ""}${inContext ? "" : " out"}${flash ? " flash" : ""}`}
      data-index={index}
      data-band={band}
      data-entry-id={entry.id}
      data-in-context={inContext ? "true" : "false"}
      data-tokens={tokens}
      style={{ transform: `translateY(${top}px)` }}
    >
      <span className={`cp-gutter band-${band}`} title={BAND_LABEL[band]}>
        <span className="sr-only">{BAND_SHORT[band]}</span>
      </span>
      <span className={`cp-icon k-${d.kind}`} aria-hidden="true">
        {d.icon}
      </span>
      <span className="cp-excerpt" title={markInvisible(`${d.label}: ${d.excerpt}`)}>
        {entry.type === "compaction" || entry.type === "branch_summary" ? (
          <button type="button" className="link" onClick={() => onOpenSummary(entry.id)}>
            <SafeText text={d.label} />: view summary
          </button>
        ) : (
          <>
            <b>
              <SafeText text={d.label} />
            </b>{" "}
            <SafeText text={d.excerpt} />
          </>
        )}
      </span>
      <span className="cp-bar-track" aria-hidden="true">
        {tokens > 0 && (
          <span
            className="cp-bar"
            style={{ left: `min(${left * 100}%, calc(100% - 3px))`, width: `${width * 100}%` }}
          />
        )}
      </span>
      <span className="cp-total" title={`${fullTokens(tokens)} tokens; running ${fullTokens(running)}`}>
        {tokens > 0 ? kTokens(tokens) : "·"}
      </span>
    </li>
  );
});

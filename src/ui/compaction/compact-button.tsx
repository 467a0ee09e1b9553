/** The "Compact…" button (top bar and panel) and the review's keyboard shortcut: small, in the first bundle. */
import { openCompactionPreview } from "../../store/compaction-store.ts";

export const REVIEW_SHORTCUT = "Alt+Shift+C";

/** "Compact…": opens the review; disabled, with the reason, when there is nothing to compact. */
export function CompactButton({
  sessionId,
  reason,
  where = "panel",
}: {
  sessionId: string;
  reason: string | null;
  where?: "top" | "panel";
}) {
  const id = `cp-cannot-${where}-${sessionId}`;
  return (
    <>
      <button
        type="button"
        className="btn small primary"
        data-testid={where === "top" ? "compact-open-top" : "compact-open"}
        disabled={reason !== null}
        aria-describedby={reason ? id : undefined}
        aria-keyshortcuts={REVIEW_SHORTCUT}
        title={reason ?? `Review a compaction (${REVIEW_SHORTCUT})`}
        onClick={() => openCompactionPreview(sessionId)}
      >
        Compact…
      </button>
      {reason && (
        <span
          className={where === "top" ? "sr-only" : "cp-cannot"}
          id={id}
          data-testid={where === "top" ? undefined : "compact-disabled-reason"}
        >
          {reason}
        </span>
      )}
    </>
  );
}

/** A line diff of the new summary against the previous one (LCS, see line-diff.ts). */
import { useMemo } from "react";
import { SafeText } from "../common/safe-text.tsx";
import { diffLines, diffStats } from "./line-diff.ts";

export function SummaryDiff({ before, after }: { before: string; after: string }) {
  const diff = useMemo(() => diffLines(before, after), [before, after]);
  const stats = diffStats(diff);
  return (
    <div className="cp-diff" data-testid="summary-diff">
      <p className="cp-note">
        +{stats.added} / −{stats.removed} lines against the previous summary
      </p>
      <pre>
        {diff.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed diff.
          <div key={i} className={`d-${d.op}`}>
            <span aria-hidden="true">{d.op === "add" ? "+ " : d.op === "del" ? "− " : "  "}</span>
            <span className="sr-only">{d.op === "add" ? "added: " : d.op === "del" ? "removed: " : ""}</span>
            <SafeText text={d.text} />
          </div>
        ))}
      </pre>
    </div>
  );
}

/**
 * "Carried verbatim": the pins a context's system prompt carries word for word, with their tokens
 * (pi's chars/4 estimate). Shown in what the model sees; the compaction review can show it for a
 * plan's system checkpoint (`plan.systemMessage`).
 */
import { pinsCarried } from "../../core/agent/pins.ts";
import type { SystemMessage } from "../../core/session/types.ts";
import { formatCount } from "../format.ts";

export function PinsCarriedNote({
  system,
  className,
}: {
  system: SystemMessage | undefined;
  className?: string;
}) {
  const carried = pinsCarried(system);
  if (carried.count === 0) return null;
  return (
    <p className={className ?? "agent-faint"} data-testid="pins-carried">
      Carried verbatim: {carried.count} pinned {carried.count === 1 ? "instruction" : "instructions"} · ≈{" "}
      {formatCount(carried.tokens)} tokens of the system prompt
    </p>
  );
}

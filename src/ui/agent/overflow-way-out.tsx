/**
 * The ways out of an overflow dead end (services/compaction/overflow-ways-out.ts), in the composer area: why
 * the message could not go out, then what can work: mask tool outputs, edit and resend it
 * shorter, drop it, or a model with a larger window. Shown as long as the session stands there
 * (after a reload too).
 */
import { useEffect, useState } from "react";
import type { SessionEntry } from "../../core/session/types.ts";
import type { OverflowDeadEnd } from "../../services/compaction/overflow-ways-out.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { fullTokens } from "../compaction/format-tokens.ts";
import { useAppServices } from "../hooks/app-services.tsx";

export interface OverflowWayOutProps {
  sessionId: string;
  path: SessionEntry[];
  /** A run is going on (or waits): nothing to offer meanwhile. */
  running: boolean;
  /** Puts the message's text in the box to shorten it. */
  onEdit(text: string): void;
  /** Takes the person to the session's model field. */
  onPickModel(): void;
  /** Hears whether a dead end stands (the composer says nothing else of that message then). */
  onFound?(found: boolean): void;
}

export function OverflowWayOut({
  sessionId,
  path,
  running,
  onEdit,
  onPickModel,
  onFound,
}: OverflowWayOutProps) {
  const overflowWaysOut = useAppServices().stranded.overflow;
  const [end, setEnd] = useState<OverflowDeadEnd | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (running) {
      setEnd(undefined);
      return;
    }
    void overflowWaysOut.find(sessionId, path).then((found) => {
      if (live) setEnd(found);
    });
    return () => {
      live = false;
    };
  }, [sessionId, path, running, overflowWaysOut]);

  // What the hooks said of the failed recovery is said here, with the ways out, once.
  useEffect(() => {
    if (end) useCompactionStore.getState().patch(sessionId, { notice: null });
    onFound?.(end !== undefined);
  }, [end, sessionId, onFound]);

  if (!end) return null;

  const act = async (run: () => Promise<{ ok: true } | { ok: false; message: string }>) => {
    setBusy(true);
    setSaid(null);
    const r = await run();
    setBusy(false);
    if (!r.ok) setSaid(r.message);
  };

  return (
    <div className="agent-status error agent-way-out" role="alert" data-testid="overflow-way-out">
      <p>
        <strong>Your last message did not fit the model's window.</strong>{" "}
        {end.why === "nothing-to-summarize"
          ? `There is nothing older to summarize to make room: the message itself (≈ ${fullTokens(end.messageTokens)} tokens) and what has to stay are too long for this model. Sending again would fail the same way.`
          : "Compacting once did not make enough room, so Cutpoint stopped instead of trying again."}{" "}
        What can work:
      </p>
      <div className="agent-way-out-actions">
        {end.maskable > 0 && (
          <button
            type="button"
            className="btn small"
            disabled={busy}
            onClick={() =>
              void act(async () => {
                const r = await overflowWaysOut.mask(sessionId, path);
                if (r.ok) setSaid(`Masked ${r.count} tool output${r.count === 1 ? "" : "s"}: send again.`);
                return r;
              })
            }
          >
            Mask {end.maskable} tool output{end.maskable === 1 ? "" : "s"}
          </button>
        )}
        <button
          type="button"
          className="btn small"
          disabled={busy}
          onClick={() =>
            void act(async () => {
              const r = await overflowWaysOut.leave(sessionId, path, end);
              if (r.ok) onEdit(end.text);
              return r;
            })
          }
        >
          Edit and resend it shorter
        </button>
        <button
          type="button"
          className="btn small"
          disabled={busy}
          onClick={() => void act(() => overflowWaysOut.leave(sessionId, path, end))}
        >
          Drop it
        </button>
        <button type="button" className="btn small" disabled={busy} onClick={onPickModel}>
          Use a model with a larger window
        </button>
      </div>
      <p className="agent-way-out-note">
        Edit and Drop move the session back to before the message; it stays in the file on a side branch.
      </p>
      {said && (
        <p className="agent-way-out-note" role="status">
          {said}
        </p>
      )}
    </div>
  );
}

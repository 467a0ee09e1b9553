/** Above a session followed from pi's folder: that pi writes it, what arrived, and the ways to work on it. */

import { piFolder } from "../../services/pi/pi-folder-instance.ts";
import { usePiFollowStore } from "../../store/pi-follow-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { formatCountOf } from "../format.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";

export function FollowBanner({ sessionId }: { sessionId: string }) {
  const { row, loaded } = useCurrentSession();
  const followed = usePiFollowStore((s) => s.follows[sessionId]);
  const path = row?.followedFrom;
  if (!path) return null;
  const ui = useUiStore.getState();

  const stop = async () => {
    usePiFollowStore.getState().stop(sessionId);
    const r = await piFolder.unmark(sessionId);
    ui.pushToast(
      r.ok
        ? {
            kind: "info",
            message: "Stopped following: this session is yours to change; pi's file stays as it is.",
          }
        : { kind: "error", message: r.error.message },
    );
  };
  const copy = async () => {
    if (!loaded) return;
    const r = await piFolder.copy(loaded, row.leafId);
    if (!r.ok) return ui.pushToast({ kind: "error", message: r.error.message });
    const dir = followed?.dir;
    let saved = "";
    if (dir) {
      const s = await piFolder.save(r.value.row.id, dir);
      saved = s.ok
        ? ` Saved into pi's folder as ${s.fileName}: pi can resume it.`
        : ` Not saved into pi's folder: ${s.message}`;
    }
    ui.pushToast({ kind: "success", message: `Made a copy to work on.${saved}` });
    ui.selectSession(r.value.row.id);
  };

  const state = followed?.state;
  return (
    <div className="follow-banner" role="status" data-testid="follow-banner">
      {state && !state.problem ? (
        <span>
          <strong>pi is writing this session.</strong> Following <code>{path}</code>:{" "}
          {formatCountOf(state.appended, "new entry", "new entries")} so far, last change{" "}
          {new Date(state.lastChange).toLocaleTimeString()}. Cutpoint only reads the file and writes nothing
          to this session while it follows.
        </span>
      ) : (
        <span>
          <strong>Followed from pi's folder</strong> (<code>{path}</code>)
          {state?.problem
            ? `: ${state.problem}`
            : ": not followed in this page. Open pi's folder again to follow it."}{" "}
          Cutpoint writes nothing to this session until you stop following.
        </span>
      )}
      <span className="follow-actions">
        <button type="button" className="btn" onClick={() => void copy()} disabled={!loaded}>
          Work on a copy
        </button>
        <button type="button" className="btn ghost" onClick={() => void stop()}>
          Stop following
        </button>
      </span>
    </div>
  );
}

/**
 * "Forked from …" for a session whose header names a parent (`parentSession`: the parent's file
 * name as Cutpoint writes it, a pi file path, or an older Cutpoint's bare id). A link that opens
 * the parent when it is stored in this browser; otherwise the name as written, not a link.
 */
import { parentSessionId } from "../../core/session/fork.ts";
import { sessionTitle } from "../../core/session/session-name.ts";
import { storedSessions } from "../../services/session/sessions-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useLive } from "../data/use-live.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";

export function ForkParent() {
  const { row } = useCurrentSession();
  const written = row?.header.parentSession;
  const id = parentSessionId(written);
  const parent = useLive(() => storedSessions.watchForkParent(id, row?.id), [id, row?.id]);
  if (!id || typeof written !== "string" || parent === undefined) return null;
  if (parent === null)
    return (
      <span className="fork-parent" data-testid="fork-parent" title={written}>
        Forked from a session not in this browser ({written.split(/[\\/]/).pop()})
      </span>
    );
  const title = sessionTitle(parent);
  return (
    <span className="fork-parent" data-testid="fork-parent">
      Forked from{" "}
      <button
        type="button"
        className="link"
        title={`Open the session this one was forked from (${written})`}
        onClick={() => useUiStore.getState().selectSession(parent.id)}
      >
        “{title.length > 60 ? `${title.slice(0, 59)}…` : title}”
      </button>
    </span>
  );
}

/**
 * "Forked from …" for a session whose header names a parent (`parentSession`: the parent's file
 * name as Cutpoint writes it, a pi file path, or an older Cutpoint's bare id). A link that opens
 * the parent when it is stored in this browser; otherwise the name as written, not a link.
 */
import { useLiveQuery } from "dexie-react-hooks";
import { parentSessionId } from "../../core/session/fork.ts";
import { sessionTitle } from "../../core/session/session-name.ts";
import { db } from "../../db/instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";

export function ForkParent() {
  const { row } = useCurrentSession();
  const written = row?.header.parentSession;
  const id = parentSessionId(written);
  const parent = useLiveQuery(
    async () => {
      if (!id || id === row?.id) return null;
      const r = await db.sessions.get(id);
      return r && !r.deletedAt ? r : null;
    },
    [id, row?.id],
    undefined,
  );
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

/**
 * The stored sessions (metadata only, live): open, rename, export, delete; after them, the
 * sessions that are only on the sync target (Fetch).
 */
import { useEffect, useRef, useState } from "react";
import { sessionTitle } from "../../core/session/session-name.ts";
import { type SessionRow, storedSessions } from "../../services/session/sessions-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { markInvisible } from "../common/invisible.ts";
import { ConfirmDeleteDialog, RenameDialog } from "../common/session-dialogs.tsx";
import { useLive } from "../data/use-live.ts";
import { formatBytes, formatCount, formatDate } from "../format.ts";
import { useSessionActions } from "../hooks/use-session-actions.ts";
import { RemoteSessionItems } from "../sync/remote-sessions.tsx";
import { SessionSyncBadge } from "../sync/sync-badge.tsx";
import { useSyncStatus } from "../sync/use-sync.ts";
import { SessionItem } from "./session-item.tsx";

type Pending = { kind: "rename" | "delete"; row: SessionRow } | undefined;

export function SessionList() {
  const sessions = useLive(storedSessions.watchList, []);
  const selected = useUiStore((s) => s.selectedSessionId);
  const select = useUiStore((s) => s.selectSession);
  const actions = useSessionActions();
  const [pending, setPending] = useState<Pending>(undefined);
  const sync = useSyncStatus();
  // After a delete, the focus goes to the session now at the deleted one's place (its button is gone).
  const listRef = useRef<HTMLUListElement>(null);
  const focusAfter = useRef<{ id: string; at: number } | null>(null);
  useEffect(() => {
    const after = focusAfter.current;
    if (!after || !sessions || sessions.some((s) => s.id === after.id)) return;
    focusAfter.current = null;
    const items = listRef.current?.querySelectorAll<HTMLButtonElement>("button.session-open");
    if (items && items.length > 0) items[Math.min(after.at, items.length - 1)]!.focus();
  }, [sessions]);

  if (sessions === undefined) return <p className="center-note">Loading…</p>;
  if (sessions.length === 0 && sync.remote.length === 0)
    return <p className="center-note">No sessions yet.</p>;
  return (
    <>
      <ul className="session-list" aria-label="Sessions" ref={listRef}>
        {sessions.map((row) => {
          const title = sessionTitle(row);
          return (
            <SessionItem
              key={row.id}
              id={row.id}
              title={title}
              current={row.id === selected}
              onOpen={() => select(row.id)}
              details={
                <>
                  <span className="session-meta">
                    {formatDate(row.updatedAt)} ·{" "}
                    <span data-testid="entry-count">{formatCount(row.entryCount)}</span>{" "}
                    {row.entryCount === 1 ? "entry" : "entries"} · {formatBytes(row.byteSize)}
                  </span>
                  <SessionSyncBadge sessionId={row.id} />
                </>
              }
              actions={
                <>
                  <button
                    type="button"
                    className="btn ghost icon"
                    aria-label={`Rename ${markInvisible(title)}`}
                    title="Rename"
                    onClick={() => setPending({ kind: "rename", row })}
                  >
                    ✎
                  </button>
                  <button
                    type="button"
                    className="btn ghost icon"
                    aria-label={`Export ${markInvisible(title)}`}
                    title="Export .jsonl"
                    onClick={() => void actions.exportFile(row.id)}
                  >
                    ⤓
                  </button>
                  <button
                    type="button"
                    className="btn ghost icon"
                    aria-label={`Delete ${markInvisible(title)}`}
                    title="Delete"
                    onClick={() => setPending({ kind: "delete", row })}
                  >
                    ✕
                  </button>
                </>
              }
            />
          );
        })}
        <RemoteSessionItems remote={sync.remote} where={sync.targetName ?? "the sync target"} />
      </ul>
      {pending?.kind === "rename" && (
        <RenameDialog
          initial={pending.row.name ?? ""}
          shownAs={sessionTitle(pending.row)}
          onSave={(name) => void actions.rename(pending.row.id, name)}
          onClose={() => setPending(undefined)}
        />
      )}
      {pending?.kind === "delete" && (
        <ConfirmDeleteDialog
          label={sessionTitle(pending.row)}
          onConfirm={() => {
            focusAfter.current = {
              id: pending.row.id,
              at: sessions.findIndex((s) => s.id === pending.row.id),
            };
            void actions.remove(pending.row.id, sessionTitle(pending.row));
          }}
          onClose={() => setPending(undefined)}
        />
      )}
    </>
  );
}

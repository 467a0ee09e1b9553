/**
 * Branch actions on a timeline row (mounted by the timeline row): "Edit and resend" on a user
 * message, "Continue from here", "Label", and the sibling switcher "‹ 2 / 3 ›" where the path
 * forks. Reads the loaded session itself, so the row needs to pass only the entry.
 * The toolbar (shown on hover or focus) is mounted only on the row the pointer or focus was last
 * on (`toolbar`): a leaf move renders a screenful of new rows, and three hidden buttons on each
 * were a quarter of that layout.
 */
import { memo } from "react";
import { entryPinText } from "../../core/agent/pins.ts";
import { siblingsOf } from "../../core/session/session-tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { pinEntry, usePinChange } from "../pins/use-pins.ts";
import { treeData } from "./tree-model.ts";
import { useTreeActions } from "./use-tree-actions.ts";

function isUser(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry as { message?: { role?: unknown } }).message?.role === "user";
}

export const TreeRowActions = memo(function TreeRowActions({
  entry,
  toolbar,
}: {
  entry: SessionEntry;
  toolbar: boolean;
}) {
  const { loaded } = useCurrentSession();
  const sessionId = useUiStore((s) => s.selectedSessionId) ?? "";
  const actions = useTreeActions(sessionId);
  const changePin = usePinChange(sessionId);
  if (!loaded || sessionId === "") return null;
  const data = treeData(loaded.entries);
  const siblings = siblingsOf(data, entry);
  const at = siblings.findIndex((s) => s.id === entry.id);
  const isLeaf = entry.id === data.positionId;
  const prev = at > 0 ? siblings[at - 1] : undefined;
  const next = at >= 0 && at < siblings.length - 1 ? siblings[at + 1] : undefined;
  return (
    <>
      {toolbar && (
        <div className="tree-row-actions" data-testid="row-actions">
          {isUser(entry) && (
            <button type="button" className="btn small" onClick={() => actions.editAndResend(entry)}>
              Edit and resend
            </button>
          )}
          {!isLeaf && (
            <button type="button" className="btn small" onClick={() => actions.continueFrom(entry.id)}>
              Continue from here
            </button>
          )}
          <button type="button" className="btn small" onClick={() => actions.label(entry.id)}>
            Label
          </button>
          {entryPinText(entry) !== "" && (
            <button
              type="button"
              className="btn small"
              title="Pin this message's text: it becomes part of the system prompt and survives every compaction"
              onClick={() => void pinEntry(changePin, entry)}
            >
              Pin
            </button>
          )}
        </div>
      )}
      {siblings.length > 1 && (
        <nav
          className="tree-siblings"
          aria-label="Branches here"
          data-testid="branch-switcher"
          data-entry-id={entry.id}
        >
          <button
            type="button"
            className="btn ghost small"
            aria-label="Previous branch"
            disabled={!prev}
            onClick={() => prev && actions.switchTo(prev, "prev")}
          >
            ‹
          </button>
          <span data-testid="branch-position">
            {at + 1} / {siblings.length}
          </span>
          <button
            type="button"
            className="btn ghost small"
            aria-label="Next branch"
            disabled={!next}
            onClick={() => next && actions.switchTo(next, "next")}
          >
            ›
          </button>
          <span className="tree-siblings-note">branch</span>
        </nav>
      )}
    </>
  );
});

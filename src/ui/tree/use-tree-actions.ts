/**
 * Tree actions wired to the services, the stores and toasts: navigate, edit and resend, continue
 * from here and switch branch (all through `requestLeafMove`, which offers the branch summary),
 * label, fork, export a branch.
 */
import { useMemo } from "react";
import { latestTip } from "../../core/session/session-tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { forkSession } from "../../services/tree/fork-instance.ts";
import { exportBranchFile } from "../../services/tree/fork-service.ts";
import { type LeafMoveRequest, useTreeStore } from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { download } from "../common/download.ts";
import { formatCountOf } from "../format.ts";
import { useAppServices } from "../hooks/app-services.tsx";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { registerPrefetch } from "../shell/lazy-component.ts";
import { treeData } from "./tree-model.ts";

// The move logic (branch summary offer, optimistic move) loads when the page is idle.
const leafMove = () => import("./leaf-move.ts");
registerPrefetch(leafMove);

const toastError = (message: string) => useUiStore.getState().pushToast({ kind: "error", message });

export function useTreeActions(sessionId: string) {
  const { loaded } = useCurrentSession();
  const { tree } = useAppServices();
  return useMemo(() => {
    const data = () => (loaded ? treeData(loaded.entries) : undefined);
    const request = (r: LeafMoveRequest) => {
      const d = data();
      if (d) void leafMove().then((m) => m.requestLeafMove(tree, sessionId, d, r));
    };

    return {
      /** Tree panel: opens the navigation preview (branch summary offer) for a target entry. */
      navigate(entryId: string | null) {
        request({ targetId: entryId, via: "tree" });
      },
      /**
       * The leaf goes to the parent of a user message, its text into the composer (after Confirm or
       * Skip when the preview is offered; not on Cancel).
       */
      editAndResend(entry: SessionEntry) {
        request({ targetId: entry.id, landing: "rule", via: "edit" });
      },
      /** Moves the leaf to this entry: what is sent next branches from here. */
      continueFrom(entryId: string) {
        request({ targetId: entryId, landing: "exact", via: "continue", focus: { entryId, control: "row" } });
      },
      /** Switches to the branch of `sibling`: the leaf goes to its latest tip. */
      switchTo(sibling: SessionEntry, control: "prev" | "next") {
        const d = data();
        if (!d) return;
        request({
          targetId: latestTip(d, sibling).id,
          landing: "exact",
          via: "switch",
          focus: { entryId: sibling.id, control },
        });
      },
      label(entryId: string) {
        useTreeStore.getState().startLabel(sessionId, entryId);
      },
      async fork(entryId: string | null) {
        if (!loaded) return;
        const d = data()!;
        const r = await forkSession(
          { header: loaded.header, entries: loaded.entries, index: d.index },
          entryId,
        );
        if (!r.ok) {
          toastError(r.error.message);
          return;
        }
        const { row, editorText } = r.value;
        useTreeStore.getState().setTreeOpen(false);
        useUiStore.getState().selectSession(row.id);
        // Forked at a user message: the fork ends before it, its text is in the composer, ready to send.
        if (editorText !== undefined) useTreeStore.getState().putInComposer(row.id, editorText);
        useUiStore.getState().pushToast({
          kind: "success",
          message: `Forked into a new session, “${row.name}” (${formatCountOf(row.entryCount, "entry", "entries")}).`,
        });
      },
      exportBranch() {
        if (!loaded) return;
        const d = data()!;
        const r = exportBranchFile(
          { header: loaded.header, entries: loaded.entries, index: d.index },
          d.positionId,
        );
        if (r.ok) download(r.value.blob, r.value.fileName);
        else toastError(r.error.message);
      },
    };
  }, [loaded, sessionId, tree]);
}

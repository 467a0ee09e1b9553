/**
 * Tree actions wired to the services, the stores and toasts: navigate (opens the branch-summary
 * preview), edit and resend, continue from here, switch branch, label, fork, export a branch.
 */
import { useMemo } from "react";
import { branchNewLeaf } from "../../core/compaction/branch.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { moveLeaf } from "../../services/branch-service.ts";
import { exportBranchFile, forkToNewSession } from "../../services/fork-service.ts";
import { useTreeStore } from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { latestTip, treeData } from "./tree-model.ts";

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

const toastError = (message: string) => useUiStore.getState().pushToast({ kind: "error", message });

export function useTreeActions(sessionId: string) {
  const { loaded } = useCurrentSession();
  return useMemo(() => {
    const data = () => (loaded ? treeData(loaded.entries) : undefined);
    const taken = () => data()?.index.byId;

    const move = async (targetId: string | null): Promise<boolean> => {
      const ids = taken();
      const r = await moveLeaf(db, sessionId, targetId, ids ? { taken: ids } : {});
      if (!r.ok) toastError(r.error.message);
      return r.ok;
    };

    return {
      /** Opens the navigation preview (branch summary offer) for a target entry. */
      navigate(entryId: string | null) {
        useTreeStore.getState().startNavigation(sessionId, entryId);
      },
      /** Moves the leaf to the parent of a user message and puts its text in the composer. */
      async editAndResend(entry: SessionEntry) {
        const { leafId, editorText } = branchNewLeaf(entry);
        if (await move(leafId)) {
          useTreeStore.getState().putInComposer(sessionId, editorText ?? "");
          useUiStore.getState().pushToast({
            kind: "info",
            message: "Edit the message and send it: the reply starts a new branch. The old branch is kept.",
          });
        }
      },
      /** Moves the leaf to this entry: what is sent next branches from here. */
      async continueFrom(entryId: string) {
        if (await move(entryId))
          useUiStore
            .getState()
            .pushToast({ kind: "info", message: "Continuing from here; the other branch is kept." });
      },
      /** Switches to the branch of `sibling`: the leaf goes to its latest tip. */
      async switchTo(sibling: SessionEntry) {
        const d = data();
        if (!d) return;
        await move(latestTip(d, sibling).id);
      },
      label(entryId: string) {
        useTreeStore.getState().startLabel(sessionId, entryId);
      },
      async fork(entryId: string | null) {
        if (!loaded) return;
        const d = data()!;
        const r = await forkToNewSession(
          db,
          { header: loaded.header, entries: loaded.entries, index: d.index },
          entryId,
        );
        if (!r.ok) {
          toastError(r.error.message);
          return;
        }
        useTreeStore.getState().setTreeOpen(false);
        useUiStore.getState().selectSession(r.value.id);
        useUiStore.getState().pushToast({
          kind: "success",
          message: `Forked into a new session (${r.value.entryCount} entries).`,
        });
      },
      exportBranch() {
        if (!loaded) return;
        const d = data()!;
        const r = exportBranchFile(
          { header: loaded.header, entries: loaded.entries, index: d.index },
          d.leafId,
        );
        if (r.ok) download(r.value.blob, r.value.fileName);
        else toastError(r.error.message);
      },
    };
  }, [loaded, sessionId]);
}

/**
 * The tree's mount point (the "sessionActions" slot): a "Tree" toggle in the top bar, and, for
 * the open session, the tree panel, the navigation (branch summary) dialog and the label dialog.
 */
import { useEffect } from "react";
import { createPortal } from "react-dom";
import { useTreeStore } from "../../store/tree-store.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { useCurrentSession } from "../hooks/current-session.tsx";
import type { SessionSlotProps } from "../shell/slots.ts";
import { LabelDialog } from "./label-dialog.tsx";
import { NavigateDialog } from "./navigate-dialog.tsx";
import { treeData } from "./tree-model.ts";
import { TreePanel } from "./tree-panel.tsx";

export function TreeControls({ sessionId }: SessionSlotProps) {
  const { loaded } = useCurrentSession();
  const open = useTreeStore((s) => s.treeOpen);
  const setOpen = useTreeStore((s) => s.setTreeOpen);
  const data = loaded ? treeData(loaded.entries) : undefined;

  // Keyboard: Alt+T toggles the tree.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && (e.key === "t" || e.key === "T")) {
        e.preventDefault();
        useTreeStore.getState().setTreeOpen(!useTreeStore.getState().treeOpen);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      <button
        type="button"
        className="btn"
        aria-pressed={open}
        aria-keyshortcuts="Alt+T"
        title="The session as a tree: branches, labels, fork (Alt+T)"
        onClick={() => setOpen(!open)}
        disabled={!data}
      >
        Tree
      </button>
      {data &&
        createPortal(
          <>
            {open && (
              <ErrorBoundary key={sessionId} name="the session tree">
                <TreePanel sessionId={sessionId} data={data} />
              </ErrorBoundary>
            )}
            <ErrorBoundary name="the navigation dialog">
              <NavigateDialog sessionId={sessionId} data={data} />
            </ErrorBoundary>
            <ErrorBoundary name="the label dialog">
              <LabelDialog sessionId={sessionId} data={data} />
            </ErrorBoundary>
          </>,
          document.body,
        )}
    </>
  );
}

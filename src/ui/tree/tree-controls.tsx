/**
 * The tree's mount point (the "sessionActions" slot): a "Tree" toggle in the top bar, and, for
 * the open session, the tree panel, the navigation (branch summary) dialog and the label dialog.
 * The panel and the dialogs load on demand: their code is fetched when first opened.
 */
import { type ReactNode, useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { useTreeStore } from "../../store/tree-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { refocusIfLost } from "../common/focus-return.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { lazyComponent } from "../shell/lazy-component.ts";
import { LoadBoundary } from "../shell/load-boundary.tsx";
import type { SessionSlotProps } from "../shell/slots.ts";
import { treeData } from "./tree-model.ts";

const TreePanel = lazyComponent(
  () => import("./tree-panel.tsx"),
  (m) => m.TreePanel,
);
const NavigateDialog = lazyComponent(
  () => import("./navigate-dialog.tsx"),
  (m) => m.NavigateDialog,
);
const LabelDialog = lazyComponent(
  () => import("./label-dialog.tsx"),
  (m) => m.LabelDialog,
);

/** The tree panel's frame, for what it shows while its code loads or when that failed. */
function TreeFrame({ children }: { children: ReactNode }) {
  return (
    <aside className="tree-panel" aria-label="Session tree">
      {children}
    </aside>
  );
}

/**
 * The frame of the navigation and label dialogs when they cannot be shown (their code did not
 * load, or they failed): a dialog of its own, where the person was looking, that closes them.
 */
function DialogsFrame({ children }: { children: ReactNode }) {
  const close = () => {
    const { endNavigation, endLabel } = useTreeStore.getState();
    endNavigation();
    endLabel();
  };
  return (
    <Dialog open name="tree-dialog-failed" title="This dialog could not be opened" onClose={close}>
      {children}
    </Dialog>
  );
}

/** What the tree panel shows while its code loads. */
function TreeLoading() {
  return (
    <TreeFrame>
      <p className="slot-loading" role="status">
        Loading the tree…
      </p>
    </TreeFrame>
  );
}

export function TreeControls({ sessionId }: SessionSlotProps) {
  const { loaded } = useCurrentSession();
  const open = useTreeStore((s) => s.treeOpen);
  const setOpen = useTreeStore((s) => s.setTreeOpen);
  const navigating = useTreeStore((s) => s.navigation?.sessionId === sessionId);
  const labelling = useTreeStore((s) => s.labelling?.sessionId === sessionId);
  const data = loaded ? treeData(loaded.entries) : undefined;
  // Closed with the focus inside it (Escape, its ✕), the tree gives the focus back to its button.
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    // (Narrow, the button is in the closed ⋯ menu: the menu's button takes it.)
    if (wasOpen.current && !open)
      refocusIfLost(() => [buttonRef.current, document.querySelector('[data-testid="topbar-more"]')]);
    wasOpen.current = open;
  }, [open]);

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
        ref={buttonRef}
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
              <ErrorBoundary key={sessionId} name="the session tree" frame={TreeFrame}>
                <LoadBoundary fallback={<TreeLoading />} frame={TreeFrame}>
                  <TreePanel sessionId={sessionId} data={data} />
                </LoadBoundary>
              </ErrorBoundary>
            )}
            {/* Mounted only while one is open: a failure shown is gone once closed. */}
            {(navigating || labelling) && (
              <ErrorBoundary name="the navigation and label dialogs" frame={DialogsFrame}>
                <LoadBoundary fallback={null} frame={DialogsFrame}>
                  {navigating && <NavigateDialog sessionId={sessionId} data={data} />}
                  {labelling && <LabelDialog sessionId={sessionId} data={data} />}
                </LoadBoundary>
              </ErrorBoundary>
            )}
          </>,
          document.body,
        )}
    </>
  );
}

/**
 * The one way the UI moves the leaf. The tree panel, the branch switcher "‹ 2 / 3 ›", "Edit and
 * resend" and "Continue from here" all call `requestLeafMove`: it plans the move
 * (docs/session-format.md §12) and either opens the branch-summary preview (NavigateDialog:
 * preview, streamed or offline summary, edit, Confirm / Skip / Cancel) or, when nothing the model
 * saw is left behind, just moves. `completeLeafMove` is what follows a move however it was made
 * (the message text to the composer, a toast, focus back where the person was).
 */

import type { TreeData } from "../../core/session/session-tree.ts";
import type { TreeActions } from "../../services/app/app-services.ts";
import { appCompactionSettings } from "../../services/compaction/compaction-settings-instance.ts";
import {
  decideLeafMove,
  type NavigationPlan,
  planNavigation,
} from "../../services/tree/branch-navigation.ts";
import {
  type FocusAfterMove,
  type LeafMoveRequest,
  type LeafMoveVia,
  useTreeStore,
} from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { loadedAgent } from "../agent/agent-handle.ts";
import { inputStamp } from "../common/input-stamp.ts";

/** Reserve used only to decide whether to ask (the selection budget does not change what is left). */
const DECIDE_RESERVE = 16384;

export type LeafMoveOutcome = "asked" | "moved" | "stayed" | "failed";

/**
 * Moves the leaf for `request`, asking first (the branch-summary preview) when the tree panel asks
 * or when the move leaves messages behind, unless the offer is turned off (Settings → Compaction,
 * or "Don't ask again" in the preview). Resolves once the move is written or the dialog is open.
 */
export async function requestLeafMove(
  tree: TreeActions,
  sessionId: string,
  data: TreeData,
  request: LeafMoveRequest,
): Promise<LeafMoveOutcome> {
  const since = inputStamp();
  // A run appends to the branch it started on: moving the leaf under it would be undone by its
  // next message (the same rule as changing the model during a run). Without the agent's code
  // loaded, nothing runs in this tab.
  if (loadedAgent()?.agentService.session(sessionId).getState().running) {
    useUiStore
      .getState()
      .pushToast({ kind: "error", message: "Wait for the run to finish (or stop it) before moving." });
    return "failed";
  }
  const { branchSummary } = await appCompactionSettings.load();
  const plan = planNavigation(
    data.index,
    data.leafId,
    request.targetId,
    { reserveTokens: DECIDE_RESERVE },
    request.landing ?? "rule",
  );
  const decision = decideLeafMove(
    plan,
    branchSummary === "never" ? "never" : request.via === "tree" ? "always" : "when-leaving",
  );
  if (decision === "missing" || !plan) {
    useUiStore
      .getState()
      .pushToast({ kind: "error", message: "That entry is not in this session any more." });
    return "failed";
  }
  if (decision === "ask") {
    useTreeStore.getState().startNavigation(sessionId, request);
    return "asked";
  }
  if (decision === "move") {
    const r = await tree.moveLeafShown(sessionId, data, plan.newLeafId);
    if (!r.ok) {
      useUiStore.getState().pushToast({ kind: "error", message: `Nothing moved. ${r.error.message}` });
      return "failed";
    }
  }
  completeLeafMove(sessionId, request, plan, "none", since);
  return decision === "move" ? "moved" : "stayed";
}

const TOASTS: Record<LeafMoveVia, string> = {
  tree: "Moved.",
  switch: "Switched branch.",
  edit: "Edit the message and send it: the reply starts a new branch.",
  continue: "Continuing from here: what you send next branches from here.",
};

/**
 * After a move: the text of a user message target goes into the composer (which focuses
 * itself), a toast says what happened (and that the branch left is kept), focus returns to the
 * row the control was on.
 */
export function completeLeafMove(
  sessionId: string,
  request: LeafMoveRequest,
  plan: NavigationPlan,
  summary: "written" | "skipped" | "none",
  /** `inputStamp()` when the person made the move: focus is not moved if they clicked or typed since. */
  since: number,
): void {
  const { focus } = request;
  if (plan.editorText !== undefined) useTreeStore.getState().putInComposer(sessionId, plan.editorText);
  const kept = plan.left.length > 0 ? " The branch you left is kept." : "";
  const what =
    summary === "written"
      ? " A branch summary was written."
      : summary === "skipped"
        ? " No summary was written."
        : "";
  useUiStore.getState().pushToast({
    kind: summary === "written" ? "success" : "info",
    message: `${TOASTS[request.via]}${what}${kept}`,
  });
  if (focus && plan.editorText === undefined) focusWhenRendered(focus, since);
}

function findControl(focus: FocusAfterMove): HTMLElement | null {
  const id = CSS.escape(focus.entryId);
  if (focus.control === "row")
    return document.querySelector<HTMLElement>(`button.row-head[data-entry-id="${id}"]`);
  const nav = document.querySelector<HTMLElement>(`[data-testid="branch-switcher"][data-entry-id="${id}"]`);
  if (!nav) return null;
  const wanted = nav.querySelector<HTMLButtonElement>(
    `button[aria-label="${focus.control === "prev" ? "Previous branch" : "Next branch"}"]`,
  );
  if (wanted && !wanted.disabled) return wanted;
  return nav.querySelector<HTMLButtonElement>("button:not([disabled])");
}

/**
 * Focuses the control once the new path is rendered and no dialog is open (the timeline row of a
 * switched-to sibling is a new element; the dialog hands focus back to its opener as it closes).
 * Gives up after about a second, or when the person has clicked or pressed a key since the move
 * (`since`): they have moved on, e.g. opened the tree while the move was written, and the focus
 * they gave must stay.
 */
function focusWhenRendered(focus: FocusAfterMove, since: number, frames = 60): void {
  const step = (left: number) => {
    if (inputStamp() !== since) return;
    const el = document.querySelector("dialog[open]") ? null : findControl(focus);
    if (el?.isConnected) {
      el.focus({ preventScroll: true });
      return;
    }
    if (left > 0) requestAnimationFrame(() => step(left - 1));
  };
  if (inputStamp() === since) requestAnimationFrame(() => step(frames));
}

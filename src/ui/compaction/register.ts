/**
 * Mounts the compaction UI into the shell (imported once by src/main.tsx): the context meter in
 * the top bar, the provider's count beside the timeline head's estimate, the token timeline + review in the right panel, the settings in the Settings
 * dialog; and `connectCompactionHooks` (called by src/main.tsx with the tab's services) gives the
 * agent hooks (auto-compaction, ask mode, overflow recovery) the UI they use:
 * everything they show belongs to their session, and one notice per event (progress replaced by
 * its result; errors said once, in the session's banner).
 */

import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import type { AppServices } from "../../services/app/app-services.ts";
import type { CompactionUi } from "../../services/compaction/compaction-agent-hooks.ts";
import { sessionState, useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { whenAgentLoads } from "../agent/agent-handle.ts";
import { addPathWarmer } from "../hooks/warm-session.ts";
import { registerPrefetch } from "../shell/lazy-component.ts";
import { registerLazySlot, registerSlot } from "../shell/slots.ts";
import { ContextMeter } from "./context-meter.tsx";
import { ContextSizeNote } from "./context-size-note.tsx";
import { warmPathModel } from "./path-model.ts";
import "./compaction.css";

// The panel (token timeline and review) and the settings form load on demand: not needed to show a session.
registerSlot("topBar", ContextMeter, "compaction-meter");
registerSlot("timelineHead", ContextSizeNote, "compaction-size-note");
registerLazySlot(
  "rightPanel",
  () => import("./token-timeline.tsx"),
  (m) => m.TokenTimeline,
  "compaction-timeline",
);
registerLazySlot(
  "settings",
  () => import("./compaction-settings-form.tsx"),
  (m) => m.CompactionSettingsForm,
  "compaction-settings",
);
// The meter and the token timeline plan on the whole path: built ahead while a session opens
// (with pi's estimator, the default; a tokenizer estimator is built when it has loaded).
addPathWarmer((sessionId, path, step) => warmPathModel(sessionId, path, PI_ESTIMATOR, step));

const compactionUi: CompactionUi = {
  isReviewing(sessionId) {
    const s = sessionState(useCompactionStore.getState(), sessionId);
    return s.previewOpen && (s.status === "generating" || s.status === "ready");
  },
  openReview(sessionId, reason) {
    useCompactionStore.getState().openCompactionPreview(sessionId, { generate: true, reason });
    if (useUiStore.getState().selectedSessionId === sessionId) useUiStore.getState().setRightPanelOpen(true);
  },
  setWaiting(sessionId, count) {
    useCompactionStore.getState().patch(sessionId, { queued: count });
  },
  notify(n) {
    const ui = useUiStore.getState();
    if (n.kind === "error") {
      // An error is said once, where it belongs: the session's banner (the progress notice goes).
      ui.dismissToastKey(n.key);
      useCompactionStore.getState().patch(n.sessionId, { notice: n.message });
      return;
    }
    ui.pushToast({
      kind: n.kind,
      message: n.message,
      key: n.key,
      sessionId: n.sessionId,
      ...(n.action ? { action: n.action } : {}),
      ...(n.kind === "success" ? { timeout: 15000 } : {}),
      ...(n.kind === "info" && /…$/.test(n.message) ? { timeout: 0 } : {}),
    });
  },
  compacted(info) {
    useCompactionStore.getState().patch(info.sessionId, { last: { ...info, auto: true }, undone: null });
  },
};

/**
 * Registers the compaction hooks with the agent as it loads, before any run can start
 * (ui/agent/agent-handle.ts); the hooks and the compaction code they run load with the first
 * run, not with the page.
 */
export function connectCompactionHooks(services: AppServices): void {
  const loadHooks = () => services.compaction.hooks(compactionUi);
  registerPrefetch(loadHooks);
  whenAgentLoads((agent) =>
    agent.registerAgentHooks({
      beforePrompt: async (ctx) => (await loadHooks()).beforePrompt?.(ctx),
      betweenTurns: async (ctx) => (await loadHooks()).betweenTurns?.(ctx),
      afterRun: async (ctx) => (await loadHooks()).afterRun?.(ctx),
    }),
  );
}

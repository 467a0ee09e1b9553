/**
 * Mounts the compaction UI into the shell (imported once by src/main.tsx): the context meter in
 * the top bar, the token timeline + preview in the right panel, the settings in the Settings
 * dialog, and the agent hooks (auto-compaction, ask mode, overflow recovery) with the UI they use.
 * The panel and the settings form load on demand (not needed to show a session).
 */
import { db } from "../../db/instance.ts";
import { registerAgentHooks } from "../../services/agent-instance.ts";
import { type CompactionUi, createCompactionHooks } from "../../services/compaction-agent-hooks.ts";
import { useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { registerLazySlot, registerSlot } from "../shell/slots.ts";
import { ContextMeter } from "./context-meter.tsx";
import "./compaction.css";

registerSlot("topBar", ContextMeter, "compaction-meter");
registerLazySlot(
  "rightPanel",
  () => import("./token-timeline.tsx").then((m) => m.TokenTimeline),
  "compaction-timeline",
);
registerLazySlot(
  "settings",
  () => import("./compaction-settings-form.tsx").then((m) => m.CompactionSettingsForm),
  "compaction-settings",
);

/** Toast ids of the notices shown, by key: a notice replaces the earlier one with its key. */
const shown = new Map<string, number>();

const compactionUi: CompactionUi = {
  isReviewing() {
    const s = useCompactionStore.getState();
    return s.previewOpen && (s.status === "generating" || s.status === "ready");
  },
  openReview(_sessionId, reason) {
    useCompactionStore.getState().openCompactionPreview({ generate: true, reason });
    useUiStore.getState().setRightPanelOpen(true);
  },
  setWaiting(_sessionId, count) {
    useCompactionStore.getState().setQueued(count);
  },
  notify(n) {
    const ui = useUiStore.getState();
    const previous = shown.get(n.key);
    if (previous !== undefined) ui.dismissToast(previous);
    if (n.kind === "error") useCompactionStore.getState().setNotice(n.message);
    const id = ui.pushToast({
      kind: n.kind,
      message: n.message,
      ...(n.action ? { action: n.action } : {}),
      ...(n.kind === "success" ? { timeout: 15000 } : {}),
    });
    shown.set(n.key, id);
  },
  compacted(info) {
    useCompactionStore.getState().setLast({ ...info, auto: true });
  },
};

registerAgentHooks(createCompactionHooks({ db, ui: compactionUi }));

/**
 * Mounts the compaction UI into the shell (imported once by src/main.tsx): the context meter in
 * the top bar, the token timeline + preview in the right panel, the settings in the Settings
 * dialog, and the agent hooks (auto-compaction, ask mode queue, overflow recovery). The panel
 * and the settings form load on demand (not needed to show a session).
 */
import type { AssistantMessage } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { agentService, registerAgentHooks } from "../../services/agent-instance.ts";
import { createCompactionHooks } from "../../services/compaction-agent-hooks.ts";
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

/** Calls back with the last reply once the session's current run (the overflow retry) ends. */
function watchRetry(sessionId: string, onDone: (last: AssistantMessage | undefined) => void): void {
  const controller = agentService.session(sessionId);
  let sawRun = false;
  const unsubscribe = controller.subscribe(() => {
    const st = controller.getState();
    if (st.runner.status.kind === "streaming") sawRun = true;
    if (sawRun && !st.running) {
      unsubscribe();
      onDone(st.runner.lastResult?.lastAssistant);
    }
  });
}

registerAgentHooks(createCompactionHooks({ db, watchRetry }));

/**
 * Entry points of pins and summary instructions: the "Pins" button of the top bar (with the
 * count) and its dialog, the "Summary instructions" section of the Settings dialog, and the button
 * the composer shows beside "System prompt". The dialogs load on demand.
 */

import { useState } from "react";
import { readStoredInstructions } from "../../core/compaction/instructions.ts";
import { watchSetting } from "../../services/common/settings-instance.ts";
import { SUMMARY_INSTRUCTIONS_KEY } from "../../services/compaction/summary-instructions.ts";
import { useLive } from "../data/use-live.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { lazyComponent } from "../shell/lazy-component.ts";
import type { SessionSlotProps } from "../shell/slots.ts";
import { sessionPath } from "../tree/tree-model.ts";
import { usePathPins } from "./path-pins.ts";

const PinsDialog = lazyComponent(
  () => import("./pins-dialog.tsx"),
  (m) => m.PinsDialog,
);
const SummaryInstructionsDialog = lazyComponent(
  () => import("./summary-instructions-dialog.tsx"),
  (m) => m.SummaryInstructionsDialog,
);

/** Top bar: "Pins" (and how many) opens the pins of the session. */
export function PinsButton({ sessionId }: SessionSlotProps) {
  const { loaded } = useCurrentSession();
  const [open, setOpen] = useState(false);
  const pins = usePathPins(loaded ? sessionPath(loaded.entries) : undefined);
  const count = pins?.length ?? 0;
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={!pins}
        title="Pinned instructions: kept word for word through every compaction"
        data-testid="pins-button"
        onClick={() => setOpen(true)}
      >
        Pins{count > 0 ? ` (${count})` : ""}
      </button>
      {open && <PinsDialog sessionId={sessionId} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Opens the summary instructions of a session (or, with no session, of all sessions). */
export function SummaryInstructionsButton({
  sessionId,
  scope,
  className = "btn small",
  label = "Summary instructions",
}: {
  sessionId: string;
  scope: "session" | "global";
  className?: string;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && (
        <SummaryInstructionsDialog sessionId={sessionId} scope={scope} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

/** Settings dialog: which instructions summaries use for all sessions, and the way to change them. */
export function SummaryInstructionsSettings({ sessionId }: SessionSlotProps) {
  const raw = useLive(() => watchSetting(SUMMARY_INSTRUCTIONS_KEY), []);
  const set = readStoredInstructions(raw) !== undefined;
  return (
    <fieldset className="si-settings" data-testid="summary-instructions-settings">
      <legend className="settings-heading">Summary instructions</legend>
      <p className="agent-faint">
        What the summarizer is asked to write: {set ? "your own instructions" : "Cutpoint's default"} for all
        sessions. A session can have its own.
      </p>
      <SummaryInstructionsButton
        sessionId={sessionId}
        scope="global"
        className="btn"
        label="View and edit…"
      />
    </fieldset>
  );
}

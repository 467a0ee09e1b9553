/** Renders a slot's components, each in an error boundary; a lazy one shows a loading line until its code is there. */
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { LoadBoundary } from "./load-boundary.tsx";
import { type SlotName, useSlot } from "./slots.ts";
import "./shell.css";

const SLOT_NAMES: Record<SlotName, string> = {
  topBar: "this top-bar item",
  timelineHead: "this note",
  rightPanel: "the side panel",
  composer: "the composer",
  settings: "these settings",
  sessionActions: "this top-bar action",
  sessionMenu: "this menu item",
};

const LOADING: Record<SlotName, string> = {
  topBar: "",
  timelineHead: "",
  sessionActions: "",
  sessionMenu: "",
  composer: "Loading the composer…",
  rightPanel: "Loading the panel…",
  settings: "Loading settings…",
};

/** What a lazy slot component shows while its code loads (nothing in the top bar's tight rows). */
export function SlotLoading({ slot }: { slot: SlotName }) {
  const text = LOADING[slot];
  if (!text) return null;
  return (
    <p className="slot-loading" role="status" data-testid={`slot-loading-${slot}`}>
      {text}
    </p>
  );
}

/** Renders every component registered for `slot`, each in its own error boundary (one loading line while any of them loads). */
export function SlotOutlet({ slot, sessionId }: { slot: SlotName; sessionId: string }) {
  const items = useSlot(slot);
  return (
    <LoadBoundary fallback={<SlotLoading slot={slot} />}>
      {items.map(({ key, Component }) => (
        <ErrorBoundary key={key} name={SLOT_NAMES[slot]} inline={slot !== "rightPanel"}>
          <Component sessionId={sessionId} />
        </ErrorBoundary>
      ))}
    </LoadBoundary>
  );
}

export function useHasSlot(slot: SlotName): boolean {
  return useSlot(slot).length > 0;
}

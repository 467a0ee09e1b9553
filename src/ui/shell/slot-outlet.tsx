import { ErrorBoundary } from "../common/error-boundary.tsx";
import { type SlotName, useSlot } from "./slots.ts";

const SLOT_NAMES: Record<SlotName, string> = {
  topBar: "this top-bar item",
  rightPanel: "the side panel",
  composer: "the composer",
  settings: "these settings",
  sessionActions: "this top-bar action",
};

/** Renders every component registered for `slot`, each in its own error boundary. */
export function SlotOutlet({ slot, sessionId }: { slot: SlotName; sessionId: string }) {
  const items = useSlot(slot);
  return (
    <>
      {items.map(({ key, Component }) => (
        <ErrorBoundary key={key} name={SLOT_NAMES[slot]} inline={slot !== "rightPanel"}>
          <Component sessionId={sessionId} />
        </ErrorBoundary>
      ))}
    </>
  );
}

export function useHasSlot(slot: SlotName): boolean {
  return useSlot(slot).length > 0;
}

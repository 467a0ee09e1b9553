/** Renders a slot's components; a lazily loaded one shows a loading line until its code is there. */
import { LoadBoundary } from "./load-boundary.tsx";
import { type SlotName, useSlot } from "./slots.ts";
import "./shell.css";

const LOADING: Record<SlotName, string> = {
  topBar: "",
  sessionActions: "",
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

/** Renders every component registered for `slot` (one loading line while any of them loads). */
export function SlotOutlet({ slot, sessionId }: { slot: SlotName; sessionId: string }) {
  const items = useSlot(slot);
  return (
    <LoadBoundary fallback={<SlotLoading slot={slot} />}>
      {items.map(({ key, Component }) => (
        <Component key={key} sessionId={sessionId} />
      ))}
    </LoadBoundary>
  );
}

export function useHasSlot(slot: SlotName): boolean {
  return useSlot(slot).length > 0;
}

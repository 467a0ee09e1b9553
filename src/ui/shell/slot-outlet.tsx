import { type SlotName, useSlot } from "./slots.ts";

/** Renders every component registered for `slot`. */
export function SlotOutlet({ slot, sessionId }: { slot: SlotName; sessionId: string }) {
  const items = useSlot(slot);
  return (
    <>
      {items.map(({ key, Component }) => (
        <Component key={key} sessionId={sessionId} />
      ))}
    </>
  );
}

export function useHasSlot(slot: SlotName): boolean {
  return useSlot(slot).length > 0;
}

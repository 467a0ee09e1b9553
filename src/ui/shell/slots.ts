/**
 * Mount points of the shell for features built elsewhere (agent UI, compaction UI).
 * A feature registers its component once at start-up (see src/ui/README.md):
 *
 *   registerSlot("topBar", ContextMeter);       // in the top bar, beside the session name
 *   registerSlot("timelineHead", SizeNote);      // in the timeline's head, after its token estimate
 *   registerSlot("rightPanel", CompactionPanel); // the right-side panel (toggle in the top bar)
 *   registerSlot("composer", Composer);          // below the conversation
 *   registerSlot("settings", SettingsForm);      // inside the Settings dialog
 *   registerSlot("sessionActions", MyButton);    // extra buttons in the top bar (in its ⋯ menu when narrow)
 *   registerSlot("sessionMenu", MyButton);       // buttons in the top bar's ⋯ menu
 *
 * Several components may share a slot; they render in registration order. A feature that is
 * not needed to show a session registers a loader instead, so that its code is fetched the first
 * time the slot renders (the outlet shows a loading line meanwhile):
 *
 *   registerLazySlot("rightPanel", () => import("./token-timeline.tsx"), (m) => m.TokenTimeline);
 */
import { type ComponentType, useSyncExternalStore } from "react";
import { lazyComponent } from "./lazy-component.ts";

export type SlotName =
  | "topBar"
  | "timelineHead"
  | "rightPanel"
  | "composer"
  | "settings"
  | "sessionActions"
  | "sessionMenu";

/** Props of session slots; read the loaded entries with `useCurrentSession()`. */
export interface SessionSlotProps {
  sessionId: string;
}

type Registry = Record<SlotName, { key: string; Component: ComponentType<SessionSlotProps> }[]>;

let registry: Registry = {
  topBar: [],
  timelineHead: [],
  rightPanel: [],
  composer: [],
  settings: [],
  sessionActions: [],
  sessionMenu: [],
};
const listeners = new Set<() => void>();

/** Registers (or replaces, by key) a component for a slot. Returns an unregister function. */
export function registerSlot(
  slot: SlotName,
  Component: ComponentType<SessionSlotProps>,
  key: string = Component.displayName ?? Component.name ?? "slot",
): () => void {
  const list = registry[slot].filter((s) => s.key !== key);
  registry = { ...registry, [slot]: [...list, { key, Component }] };
  for (const l of listeners) l();
  return () => {
    registry = { ...registry, [slot]: registry[slot].filter((s) => s.key !== key) };
    for (const l of listeners) l();
  };
}

/** Registers a component whose module is loaded on first render (see the module comment). */
export function registerLazySlot<M>(
  slot: SlotName,
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<SessionSlotProps>,
  key: string,
): () => void {
  return registerSlot(slot, lazyComponent(load, pick), key);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSlot(slot: SlotName) {
  return useSyncExternalStore(
    subscribe,
    () => registry[slot],
    () => registry[slot],
  );
}

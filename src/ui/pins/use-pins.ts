/** The open session's pins (replayed from its path) and the writes on them, with errors as toasts. */
import { entryPinText, type Pin } from "../../core/agent/pins.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { appPins } from "../../services/prompt/pins-instance.ts";
import type { PinRequest } from "../../services/prompt/pins-service.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";
import { leafOf, sessionPath } from "../tree/tree-model.ts";
import { usePathPins } from "./path-pins.ts";

export interface PinsApi {
  ready: boolean;
  pins: Pin[];
  /** Applies a change; resolves true when it was written. */
  change(request: PinRequest): Promise<boolean>;
}

/**
 * The change function alone: reads the path when called, so that a component that only offers
 * "Pin" (each timeline row) computes nothing while it renders.
 */
export function usePinChange(sessionId: string): PinsApi["change"] {
  const { loaded } = useCurrentSession();
  return async (request: PinRequest): Promise<boolean> => {
    if (!loaded) return false;
    const path = sessionPath(loaded.entries);
    const r = await appPins.change(sessionId, { path, request, expectedLeafId: leafOf(loaded.entries) });
    if (!r.ok) useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
    return r.ok;
  };
}

export function usePins(sessionId: string): PinsApi {
  const { loaded } = useCurrentSession();
  const change = usePinChange(sessionId);
  const pins = usePathPins(loaded ? sessionPath(loaded.entries) : undefined);
  return { ready: pins !== undefined, pins: pins ?? [], change };
}

/** Pins the text of an entry (the "Pin" action of a timeline row); tells the result in a toast. */
export async function pinEntry(change: PinsApi["change"], entry: SessionEntry): Promise<void> {
  const text = entryPinText(entry);
  if (text === "") return;
  if (await change({ kind: "add", text }))
    useUiStore.getState().pushToast({
      kind: "success",
      message:
        "Pinned: it is part of the system prompt now and survives every compaction (Pins in the top bar).",
      timeout: 8000,
    });
}

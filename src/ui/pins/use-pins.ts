/** The open session's pins (replayed from its path) and the writes on them, with errors as toasts. */
import { useMemo } from "react";
import { entryPinText, type Pin, pinsOf } from "../../core/agent/pins.ts";
import { buildSessionContext } from "../../core/session/context.ts";
import { currentPath } from "../../core/session/tree.ts";
import type { SessionEntry } from "../../core/session/types.ts";
import { db } from "../../db/instance.ts";
import { changePin, type PinRequest } from "../../services/pins-service.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useCurrentSession } from "../hooks/current-session.tsx";

export interface PinsApi {
  ready: boolean;
  pins: Pin[];
  /** Applies a change; resolves true when it was written. */
  change(request: PinRequest): Promise<boolean>;
}

export function usePins(sessionId: string): PinsApi {
  const { loaded, row } = useCurrentSession();
  const path = useMemo(() => (loaded ? currentPath(loaded.entries) : undefined), [loaded]);
  const pins = useMemo(() => (path ? pinsOf(buildSessionContext(path).systemMessage) : []), [path]);
  const change = async (request: PinRequest): Promise<boolean> => {
    if (!path) return false;
    const r = await changePin(db, sessionId, { path, request, expectedLeafId: row?.leafId ?? null });
    if (!r.ok) useUiStore.getState().pushToast({ kind: "error", message: r.error.message });
    return r.ok;
  };
  return { ready: path !== undefined, pins, change };
}

/** Pins the text of an entry (the "Pin" action of a timeline row); tells the result in a toast. */
export async function pinEntry(api: PinsApi, entry: SessionEntry): Promise<void> {
  const text = entryPinText(entry);
  if (text === "") return;
  if (await api.change({ kind: "add", text }))
    useUiStore.getState().pushToast({
      kind: "success",
      message:
        "Pinned: it is part of the system prompt now and survives every compaction (Pins in the top bar).",
      timeout: 8000,
    });
}

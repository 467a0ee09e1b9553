/**
 * A device's manifest on a sync target (pure): the sessions it wrote chunks of, how many, and
 * the sessions the person deleted on it (tombstones). Only its device rewrites it; readers combine
 * all manifests into the list of sessions on the target and the chunks they have not read yet.
 */
import type { SessionHeader } from "../session/types.ts";

export interface ManifestSession {
  header: SessionHeader;
  /** Chunks written: 1..chunks. */
  chunks: number;
  /** Entries in them (this device's share). */
  entries: number;
  /** UTF-8 bytes of their JSONL (before encryption). */
  bytes: number;
  /** What the session list shows. */
  title: string;
  /** ms since epoch: deleted on this device (a tombstone); absent = live. */
  deletedAt?: number;
}

export interface DeviceManifest {
  cutpointSync: 1;
  device: string;
  sessions: Record<string, ManifestSession>;
}

export const emptyManifest = (device: string): DeviceManifest => ({ cutpointSync: 1, device, sessions: {} });

export type ManifestRead = { ok: true; manifest: DeviceManifest } | { ok: false; reason: string };

export function parseManifest(text: string, device: string): ManifestRead {
  let value: Partial<DeviceManifest>;
  try {
    value = JSON.parse(text) as Partial<DeviceManifest>;
  } catch {
    return { ok: false, reason: "not valid JSON (incomplete or damaged)" };
  }
  if (
    value.cutpointSync !== 1 ||
    value.device !== device ||
    !value.sessions ||
    typeof value.sessions !== "object"
  )
    return { ok: false, reason: "not this device's Cutpoint sync manifest" };
  for (const s of Object.values(value.sessions)) {
    if (!s || typeof s.chunks !== "number" || !s.header || typeof s.header.id !== "string")
      return { ok: false, reason: "a session record is damaged" };
  }
  return { ok: true, manifest: value as DeviceManifest };
}

/** A session as the target holds it, over all devices. */
export interface RemoteSession {
  id: string;
  header: SessionHeader;
  title: string;
  entries: number;
  bytes: number;
  devices: string[];
  /** Some device's person deleted it. */
  deleted: boolean;
}

export function remoteSessions(manifests: readonly DeviceManifest[]): RemoteSession[] {
  const byId = new Map<string, RemoteSession>();
  for (const m of manifests) {
    for (const [id, s] of Object.entries(m.sessions)) {
      const prev = byId.get(id);
      const deleted = (prev?.deleted ?? false) || s.deletedAt !== undefined;
      if (!prev) {
        byId.set(id, {
          id,
          header: s.header,
          title: s.title,
          entries: s.entries,
          bytes: s.bytes,
          devices: [m.device],
          deleted,
        });
        continue;
      }
      byId.set(id, {
        ...prev,
        title: s.entries > prev.entries / prev.devices.length ? s.title : prev.title,
        entries: prev.entries + s.entries,
        bytes: prev.bytes + s.bytes,
        devices: [...prev.devices, m.device],
        deleted,
      });
    }
  }
  return [...byId.values()].sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
}

export interface ChunkRef {
  device: string;
  seq: number;
}

/** The chunks of `session` other devices wrote past what was read (`read`: device -> seq). */
export function unreadChunks(
  manifests: readonly DeviceManifest[],
  session: string,
  self: string,
  read: Readonly<Record<string, number>>,
): ChunkRef[] {
  const refs: ChunkRef[] = [];
  for (const m of [...manifests].sort((a, b) => a.device.localeCompare(b.device))) {
    if (m.device === self) continue;
    const s = m.sessions[session];
    if (!s) continue;
    for (let seq = (read[m.device] ?? 0) + 1; seq <= s.chunks; seq++) refs.push({ device: m.device, seq });
  }
  return refs;
}

/** Whether a device other than `self` holds a tombstone for `session`. */
export function deletedElsewhere(
  manifests: readonly DeviceManifest[],
  session: string,
  self: string,
): boolean {
  return manifests.some((m) => m.device !== self && m.sessions[session]?.deletedAt !== undefined);
}

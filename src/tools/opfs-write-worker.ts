/**
 * A dedicated worker that writes files of the origin-private file system with a sync access
 * handle: the way to write where `createWritable` is missing (Safari before 26). It opens the path
 * itself from the OPFS root (handles need not be posted), replaces the file's bytes and answers
 * with the outcome (see opfs-sync-writer.ts for the messages).
 */
import type { SyncWriteReply, SyncWriteRequest } from "./opfs-sync-writer.ts";

/** The sync access handle; its methods returned promises in Safari 15.2-16.3, hence the awaits. */
type SyncHandle = {
  truncate(size: number): unknown;
  write(data: Uint8Array, options: { at: number }): unknown;
  flush(): unknown;
  close(): unknown;
};
type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncHandle> };
type Scope = {
  onmessage: ((event: MessageEvent<SyncWriteRequest>) => void) | null;
  postMessage(message: SyncWriteReply): void;
};

const scope = globalThis as unknown as Scope;
const encoder = new TextEncoder();

async function write({ parts, content }: SyncWriteRequest): Promise<void> {
  let dir = await navigator.storage.getDirectory();
  for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part, { create: true });
  const file = (await dir.getFileHandle(parts[parts.length - 1]!, { create: true })) as SyncFileHandle;
  if (typeof file.createSyncAccessHandle !== "function") {
    throw Object.assign(new Error("no sync access handle"), { name: "NotSupportedError" });
  }
  const handle = await file.createSyncAccessHandle();
  try {
    const bytes = encoder.encode(content);
    await handle.truncate(0);
    await handle.write(bytes, { at: 0 });
    await handle.flush();
  } finally {
    await handle.close();
  }
}

scope.onmessage = (event) => {
  const request = event.data;
  write(request).then(
    () => scope.postMessage({ id: request.id, ok: true }),
    (err: unknown) =>
      scope.postMessage({
        id: request.id,
        ok: false,
        name: String((err as { name?: unknown })?.name ?? "Error"),
        message: String((err as { message?: unknown })?.message ?? err),
      }),
  );
};

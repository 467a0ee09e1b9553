// The CLI's buffered output for commands that print many rows: pieces gathered into large writes (bytes written straight into a buffer when the output takes bytes: no long strings to join and encode), with a wait for a slow reader between writes.
import type { CliIo } from "./command.ts";

export interface OutputBuffer {
  write(text: string): void;
  /** Sends what is gathered. */
  flush(): void;
  /** Something was written since the last `settle`. */
  readonly unsettled: boolean;
  /** Waits until a slow reader has taken what was written (at once when nothing was). */
  settle(): Promise<void>;
}

/** Characters gathered before a write, when the output takes text. */
const TEXT_CHUNK = 65536;
/** Bytes gathered before a write, when the output takes bytes. */
const BYTE_CHUNK = 1024 * 1024;

export function createOutputBuffer(io: CliIo): OutputBuffer {
  let flushed = false;
  const settle = async () => {
    if (!flushed) return;
    flushed = false;
    await io.drain?.();
  };
  const unsettled = () => flushed;
  const outBytes = io.outBytes;
  if (outBytes) {
    // A new buffer after each write: the stream may still hold the one it was given.
    let chunk = Buffer.allocUnsafe(BYTE_CHUNK);
    let at = 0;
    const flush = () => {
      if (at === 0) return;
      outBytes(chunk.subarray(0, at));
      flushed = true;
      chunk = Buffer.allocUnsafe(BYTE_CHUNK);
      at = 0;
    };
    return {
      write(text) {
        // UTF-8 takes at most 3 bytes per UTF-16 unit.
        if (text.length * 3 > BYTE_CHUNK - at) flush();
        if (text.length * 3 > BYTE_CHUNK) {
          outBytes(Buffer.from(text, "utf8"));
          flushed = true;
        } else at += chunk.write(text, at, "utf8");
      },
      flush,
      get unsettled() {
        return unsettled();
      },
      settle,
    };
  }
  let text = "";
  const flush = () => {
    if (text === "") return;
    io.out(text);
    flushed = true;
    text = "";
  };
  return {
    write(piece) {
      text += piece;
      if (text.length > TEXT_CHUNK) flush();
    },
    flush,
    get unsettled() {
      return unsettled();
    },
    settle,
  };
}

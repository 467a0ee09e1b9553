/** Cutting a session file's bytes, pushed in pieces of any size, into decoded lines with their byte spans. */

/**
 * Receives each physical line, in order: its text (without "\n"; a "\r" before it stays), whether
 * its bytes were not valid UTF-8 (bad sequences read as U+FFFD), whether it is the file's last
 * line with no "\n" after it, its byte span [start, end) in the input, and whether the file's BOM
 * was dropped before it.
 */
export type LineSink = (
  text: string,
  invalid: boolean,
  isLast: boolean,
  start: number,
  end: number,
  /** The file's byte order mark (U+FEFF at its start) was dropped before this line (the first). */
  bom: boolean,
) => void;

export interface LineSplitter {
  push(bytes: Uint8Array): void;
  /** Hands out the last line when the input does not end in "\n". */
  finish(): void;
}

/**
 * Bytes of whole lines decoded in one call. Small enough that most runs of a mostly-ASCII session
 * are pure ASCII (V8 then makes a one-byte string, and its JSON.parse one-byte strings) and that
 * a run's string is a young object, not a large one that outlives it; large enough that the
 * per-call cost of TextDecoder is spread over several lines. Measured on the 100 MB session
 * (npm run bench -- compaction): 4-8 KB beat 1 MB runs by a fifth of the parse time.
 */
const RUN_BYTES = 8 * 1024;

/**
 * Splits bytes into lines, each decoded exactly as if it were decoded alone (a leading BOM of the
 * file, and of any line, is dropped as a decoder drops it at the start of its input).
 *
 * The whole lines of a piece are decoded in runs of about RUN_BYTES, one `TextDecoder` call per
 * run, and cut in the string; a line that spans pieces (its bytes carried over) is decoded on its
 * own. No decode starts or ends inside a line, so a multi-byte character is never cut, and a bad
 * sequence never reaches past its line (0x0A is never part of one). When a run's string is shorter
 * than its bytes, its lines' byte ends are found in the bytes beside the string's; a line whose text holds U+FFFD is
 * checked with a fatal decoder (the file may hold a real U+FFFD).
 */
export function createLineSplitter(sink: LineSink): LineSplitter {
  // ignoreBOM: a run may start with the bytes EF BB BF; `emit` drops U+FEFF instead.
  const lenient = new TextDecoder("utf-8", { ignoreBOM: true });
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const validUtf8 = (bytes: Uint8Array): boolean => {
    try {
      strict.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  const emit = (text: string, invalid: boolean, isLast: boolean, start: number, end: number): void => {
    let line = text;
    let from = start;
    const bom = from === 0 && line.charCodeAt(0) === 0xfeff;
    // The file's BOM is no part of its first line's span (whatever the size of the first piece).
    if (bom) {
      line = line.slice(1);
      from = 3;
    }
    // Then one U+FEFF at the start of any line, as a decoder drops it at the start of its input.
    if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    sink(line, invalid, isLast, from, end, bom);
  };

  /** One line without its "\n" (a line carried over pieces, or the last line). */
  const single = (bytes: Uint8Array, isLast: boolean, start: number): void => {
    const text = lenient.decode(bytes);
    emit(text, text.includes("\uFFFD") && !validUtf8(bytes), isLast, start, start + bytes.length);
  };

  /** Whole lines, each ending in "\n", at most about RUN_BYTES; `base`: offset of `bytes[0]`. */
  const decodeRun = (bytes: Uint8Array, base: number): void => {
    const text = lenient.decode(bytes);
    // One code unit per byte (ASCII, or bad bytes each read as one U+FFFD; a character of two or
    // more bytes gives fewer units): string offsets are byte offsets.
    const oneUnitPerByte = text.length === bytes.length;
    const suspect = text.includes("\uFFFD");
    let from = 0;
    let byteFrom = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", from)) {
      const byteEnd = oneUnitPerByte ? newline : bytes.indexOf(10, byteFrom);
      const line = text.slice(from, newline);
      const invalid = suspect && line.includes("\uFFFD") && !validUtf8(bytes.subarray(byteFrom, byteEnd));
      emit(line, invalid, false, base + byteFrom, base + byteEnd);
      from = newline + 1;
      byteFrom = byteEnd + 1;
    }
  };

  /** Whole lines, each ending in "\n", cut into runs at line ends. */
  const wholeLines = (bytes: Uint8Array, base: number): void => {
    for (let from = 0; from < bytes.length; ) {
      let end = bytes.length;
      if (end - from > RUN_BYTES) {
        const cut = bytes.lastIndexOf(10, from + RUN_BYTES - 1);
        // A line longer than a run is a run of its own.
        end = (cut >= from ? cut : bytes.indexOf(10, from + RUN_BYTES)) + 1;
      }
      decodeRun(bytes.subarray(from, end), base + from);
      from = end;
    }
  };

  /** Bytes of an unfinished line from earlier pieces, and the offset where that line starts. */
  let carry: Uint8Array[] = [];
  let carryStart = 0;
  /** Absolute offset of the next byte pushed. */
  let offset = 0;

  const takeCarry = (tail: Uint8Array): Uint8Array => {
    const total = carry.reduce((n, c) => n + c.length, tail.length);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of carry) {
      out.set(c, at);
      at += c.length;
    }
    out.set(tail, at);
    carry = [];
    return out;
  };

  return {
    push(bytes) {
      const base = offset;
      offset += bytes.length;
      let start = 0;
      const first = bytes.indexOf(10);
      if (first >= 0) {
        if (carry.length > 0) {
          single(takeCarry(bytes.subarray(0, first)), false, carryStart);
          start = first + 1;
        }
        const last = bytes.lastIndexOf(10);
        if (last >= start) wholeLines(bytes.subarray(start, last + 1), base + start);
        start = last + 1;
      }
      if (start < bytes.length) {
        if (carry.length === 0) carryStart = base + start;
        // Copied: the caller may reuse its buffer (a Node Buffer's own slice() is a view, not a copy).
        carry.push(Uint8Array.prototype.slice.call(bytes, start));
      }
    },
    finish() {
      if (carry.length > 0) single(takeCarry(new Uint8Array(0)), true, carryStart);
    },
  };
}

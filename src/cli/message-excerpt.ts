// A message's excerpt for the CLI's context rows: its text on one line, whitespace collapsed, cut at 100 characters; reads only as much of the message as the excerpt shows.
import { isSpaceCode as isSpace } from "../core/coverage/coverage-text.ts";
import type { AgentMessage } from "../core/session/index.ts";
import { type PieceSink, writeJsonPieces } from "./json-pieces.ts";

export const EXCERPT_CHARS = 100;

/**
 * Gathers text as `text.replace(/\s+/g, " ").trim()` would give it, into one buffer reused from
 * message to message, stopping once it holds more than `max` characters: a long message costs no
 * more than a short one, and an excerpt allocates only its string.
 */
class Collapser implements PieceSink {
  private readonly codes: Uint16Array;
  private length = 0;
  private pendingSpace = false;

  constructor(private readonly max: number) {
    this.codes = new Uint16Array(max + 1);
  }

  reset(): void {
    this.length = 0;
    this.pendingSpace = false;
  }

  /** True once the excerpt is known to be cut. */
  get full(): boolean {
    return this.length > this.max;
  }

  add(piece: string): void {
    const { codes, max } = this;
    for (let i = 0; i < piece.length && this.length <= max; i++) {
      const c = piece.charCodeAt(i);
      if (isSpace(c)) {
        this.pendingSpace = this.length > 0;
        continue;
      }
      if (this.pendingSpace) {
        this.pendingSpace = false;
        codes[this.length++] = 0x20;
        if (this.length > max) break;
      }
      codes[this.length++] = c;
    }
  }

  result(): string {
    const text = String.fromCharCode.apply(
      null,
      this.codes.subarray(0, Math.min(this.length, this.max)) as unknown as number[],
    );
    return this.full ? `${text}…` : text;
  }
}

interface Block {
  type?: string;
  text?: unknown;
  thinking?: unknown;
  name?: unknown;
  arguments?: unknown;
}

/** Adds a content block's text as the excerpt shows it (nothing for blocks it does not show). */
function addBlock(b: Block | null | undefined, out: Collapser): void {
  let text: unknown;
  switch (b?.type) {
    case "text":
      text = b.text;
      break;
    case "thinking":
      text = b.thinking;
      break;
    case "toolCall": {
      out.add(`${b.name}(`);
      if (!writeJsonPieces(b.arguments, out)) out.add("undefined");
      out.add(")");
      return;
    }
    case "image":
      text = "[image]";
      break;
  }
  // As Array.prototype.join writes an element.
  if (text !== undefined && text !== null) out.add(String(text));
}

/**
 * Makes the excerpt function of a run (one buffer for every message it is given). The excerpt of
 * a message: a summary's text, a bash command (`$ …`), or the content's text (text, thinking,
 * `name(arguments as JSON)` of tool calls, `[image]`, blocks joined by a space), on one line with
 * whitespace runs collapsed to one space, at most `max` characters then "…".
 */
export function createMessageExcerpter(max = EXCERPT_CHARS): (message: AgentMessage) => string {
  const out = new Collapser(max);
  return (message) => {
    const m = message as Record<string, unknown>;
    out.reset();
    if (typeof m.summary === "string") out.add(m.summary);
    else if (m.role === "bashExecution") out.add(`$ ${String(m.command)}`);
    else if (typeof m.content === "string") out.add(m.content);
    else if (Array.isArray(m.content)) {
      const blocks = m.content as (Block | null | undefined)[];
      for (let i = 0; i < blocks.length && !out.full; i++) {
        if (i > 0) out.add(" ");
        addBlock(blocks[i], out);
      }
    }
    return out.result();
  };
}

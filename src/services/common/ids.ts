/** Fresh ids for entries written here: 8 lowercase hex characters, like pi's. */
import { randomUuid } from "../../db/index.ts";

export function newEntryId(taken?: { has(id: string): boolean }): string {
  const bytes = new Uint8Array(4);
  for (;;) {
    crypto.getRandomValues(bytes);
    const id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    if (!taken?.has(id)) return id;
  }
}

/** A source of fresh entry ids that avoids `taken` and every id it has handed out (it adds them). */
export function entryIdSource(taken: Set<string>): () => string {
  return () => {
    const id = newEntryId(taken);
    taken.add(id);
    return id;
  };
}

/** A session id: a version 4 UUID like pi's, on every page (db/random-id.ts). */
export function newSessionId(): string {
  return randomUuid();
}

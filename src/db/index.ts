/** The storage layer's public surface: the database instance and every repository, re-exported. */
export * from "./append-at-leaf.ts";
export * from "./chunk-tokens.ts";
export * from "./chunks.ts";
export { db } from "./instance.ts";
export * from "./keys-repo.ts";
export { randomUuid } from "./random-id.ts";
export * from "./reply-checkpoints.ts";
export * from "./result.ts";
export * from "./run-gate.ts";
export * from "./schema.ts";
export * from "./session-meta.ts";
export * from "./session-reads.ts";
export * from "./sessions-repo.ts";
export * from "./settings-repo.ts";
export * from "./storage.ts";

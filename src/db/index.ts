export * from "./chunks.ts";
export { db } from "./instance.ts";
export * from "./keys-repo.ts";
export * from "./result.ts";
export * from "./schema.ts";
export * from "./session-meta.ts";
export * from "./sessions-repo.ts";
export * from "./settings-repo.ts";
export * from "./storage.ts";

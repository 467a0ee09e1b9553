/** Public API of the session core. */
export * from "./context.ts";
export * from "./tree.ts";
export * from "./types.ts";

/** Public API of the session core. */
export * from "./context.ts";
export * from "./export.ts";
export * from "./migrate.ts";
export * from "./parse.ts";
export * from "./projection.ts";
export * from "./system-prompt.ts";
export * from "./tree.ts";
export * from "./types.ts";
export * from "./validate.ts";

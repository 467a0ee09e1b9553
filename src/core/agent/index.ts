export * from "./loop.ts";
export * from "./settings.ts";
export * from "./types.ts";

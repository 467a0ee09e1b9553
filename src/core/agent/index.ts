/** The agent core's public surface: the loop, its settings and its types, re-exported. */
export * from "./loop.ts";
export * from "./settings.ts";
export * from "./types.ts";

/** Builders of a tool's output: a text result (with optional details) and an error result. */
import type { ToolOutput } from "../core/agent/types.ts";

export const textResult = (text: string, details?: unknown): ToolOutput => ({
  content: [{ type: "text", text }],
  isError: false,
  ...(details !== undefined ? { details } : {}),
});

export const errorResult = (text: string): ToolOutput => ({
  content: [{ type: "text", text }],
  isError: true,
});

/**
 * The whole context window as parts, for the /context view: system prompt, tools, pins, summary,
 * kept messages, messages since the last compaction, the provider's count beyond the estimate,
 * free space up to the trigger, and the reserve above it. The used parts add up to the context
 * size; with free and reserve, to the window (or to the context when it is past the window). Pure.
 */

export type WindowPartKey =
  | "system"
  | "tools"
  | "pins"
  | "summary"
  | "kept"
  | "since"
  | "usage"
  | "free"
  | "reserve";

export interface WindowPart {
  key: WindowPartKey;
  tokens: number;
  /** In the context (counted in `used`), or room (free, reserve). */
  used: boolean;
}

export interface WindowPartsInput {
  /** The system prompt's estimate, pins included (they are sections of it). */
  systemPrompt: number;
  tools: number;
  pins: number;
  summary: number;
  kept: number;
  since: number;
  /** The provider's count beyond the estimate (0 when estimated or below it). */
  usage: number;
}

export interface WindowParts {
  parts: WindowPart[];
  used: number;
  window: number;
  threshold: number;
}

export function windowParts(x: WindowPartsInput, window: number, threshold: number): WindowParts {
  const pins = Math.min(x.pins, x.systemPrompt);
  const usedParts: WindowPart[] = [
    { key: "system", tokens: x.systemPrompt - pins, used: true },
    { key: "tools", tokens: x.tools, used: true },
    { key: "pins", tokens: pins, used: true },
    { key: "summary", tokens: x.summary, used: true },
    { key: "kept", tokens: x.kept, used: true },
    { key: "since", tokens: x.since, used: true },
    { key: "usage", tokens: Math.max(0, x.usage), used: true },
  ];
  const used = usedParts.reduce((n, p) => n + p.tokens, 0);
  const trigger = Math.min(threshold, window);
  const free = Math.max(0, trigger - used);
  const reserve = Math.max(0, window - Math.max(trigger, used));
  return {
    parts: [
      ...usedParts,
      { key: "free", tokens: free, used: false },
      { key: "reserve", tokens: reserve, used: false },
    ],
    used,
    window,
    threshold,
  };
}

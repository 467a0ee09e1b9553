/** The base URL check: scheme, a trailing endpoint path, a page's address. */
import { describe, expect, it } from "vitest";
import { checkBaseUrl } from "./agent-base-url.ts";

describe("checkBaseUrl", () => {
  it("accepts API base URLs", () => {
    for (const u of [
      "https://api.openai.com/v1",
      "http://localhost:11434/v1",
      "https://openrouter.ai/api/v1",
      "",
    ])
      expect(checkBaseUrl(u)).toEqual([]);
  });
  it("a missing scheme, with the fix (http for a local server)", () => {
    expect(checkBaseUrl("api.openai.com/v1")).toMatchObject([
      { kind: "no-scheme", fix: "https://api.openai.com/v1" },
    ]);
    expect(checkBaseUrl("localhost:1234/v1")[0]?.fix).toBe("http://localhost:1234/v1");
  });
  it("a trailing /chat/completions, with the base URL as the fix", () => {
    expect(checkBaseUrl("https://api.example.com/v1/chat/completions/")).toMatchObject([
      { kind: "endpoint-path", fix: "https://api.example.com/v1" },
    ]);
  });
  it("a page's address instead of the API's", () => {
    expect(checkBaseUrl("https://platform.openai.com/docs/api-reference")).toMatchObject([
      { kind: "page-url", fix: "https://api.openai.com/v1" },
    ]);
    expect(checkBaseUrl("https://example.com/docs/quickstart.html")[0]?.kind).toBe("page-url");
    expect(checkBaseUrl("ftp://x")[0]?.kind).toBe("not-a-url");
  });
});

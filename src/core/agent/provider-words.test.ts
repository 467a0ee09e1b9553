/** The plain sentence and the provider's words: joined for storage, split for display. */
import { describe, expect, it } from "vitest";
import { splitProviderWords, withProviderWords } from "./provider-words.ts";

describe("provider words", () => {
  it("joins and splits back to the same two parts", () => {
    const text = withProviderWords("The API key was rejected (401).", "401 Incorrect API key provided");
    expect(text).toBe("The API key was rejected (401). Provider's words: 401 Incorrect API key provided");
    expect(splitProviderWords(text)).toEqual({
      plain: "The API key was rejected (401).",
      raw: "401 Incorrect API key provided",
    });
  });

  it("adds nothing for empty provider text, and splits a message without words into itself", () => {
    expect(withProviderWords("Stopped.", "  ")).toBe("Stopped.");
    expect(splitProviderWords("Could not reach the endpoint.")).toEqual({
      plain: "Could not reach the endpoint.",
      raw: "",
    });
  });

  it("splits at the first marker: the provider's text may itself contain the words", () => {
    const text = withProviderWords("Refused (400).", "echo: Provider's words: x");
    expect(splitProviderWords(text).raw).toBe("echo: Provider's words: x");
  });
});

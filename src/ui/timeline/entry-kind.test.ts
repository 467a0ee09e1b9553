/** The timeline row of a system message: a pin named by its text, an unpin by its section. */
import { describe, expect, it } from "vitest";
import { pinSectionValue } from "../../core/agent/pins.ts";
import { msg } from "../../core/session/test-builders.ts";
import type { SystemMessage } from "../../core/session/types.ts";
import { describeEntry } from "./entry-kind.ts";

const system = (sections: Record<string, string | null>): SystemMessage => ({
  role: "system",
  content: "",
  sections,
  timestamp: 0,
});

describe("system message rows", () => {
  it("name a pin by its text and an unpin by its section", () => {
    expect(
      describeEntry(msg("s1", null, system({ "pin-a1": pinSectionValue("pin-a1", "never\nedit vendor/") })))
        .excerpt,
    ).toBe("pin “never edit vendor/”");
    expect(describeEntry(msg("s2", null, system({ prompt: "p", "pin-a1": null }))).excerpt).toBe(
      "sections prompt · unpins pin-a1",
    );
  });
});

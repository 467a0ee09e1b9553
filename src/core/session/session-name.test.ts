/** The name rules: a rename that changes nothing, distinct names for new sessions, fork names. */
import { describe, expect, it } from "vitest";
import { distinctName, forkName, isRename, sessionTitle } from "./session-name.ts";

describe("session names", () => {
  it("a rename to the same name, spaces aside, is no rename; '' clears a name", () => {
    expect(isRename("plan", " plan ")).toBe(false);
    expect(isRename(undefined, "  ")).toBe(false);
    expect(isRename("plan", "")).toBe(true);
    expect(isRename(undefined, "plan")).toBe(true);
  });

  it("a new name is numbered past the titles already listed", () => {
    expect(distinctName("Example session", [])).toBe("Example session");
    expect(distinctName("Example session", ["Example session"])).toBe("Example session (2)");
    expect(distinctName("Example session", ["Example session (2)", "Example session"])).toBe(
      "Example session (3)",
    );
    expect(distinctName("Fork of a", ["Fork of a (2)"])).toBe("Fork of a");
  });

  it("a fork is named after its parent's title", () => {
    expect(forkName(sessionTitle({ name: undefined, firstUserMessage: "plan the parser" }))).toBe(
      "Fork of plan the parser",
    );
    expect(sessionTitle({ firstUserMessage: "" })).toBe("Untitled session");
  });
});

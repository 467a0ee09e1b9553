/** Unit tests of what a failed dynamic import names, for fetching it again (`importOnce`). */
import { describe, expect, it } from "vitest";
import { failedModuleUrl, loadOnce } from "./lazy-component.ts";

const ORIGIN = "https://cutpoint.example";

describe("the module a failed dynamic import names", () => {
  it("is read from Chromium's and Firefox's messages, without its query", () => {
    const chunk = `${ORIGIN}/assets/agent-instance-BxKcapR0.js`;
    expect(
      failedModuleUrl(new TypeError(`Failed to fetch dynamically imported module: ${chunk}`), ORIGIN),
    ).toBe(chunk);
    expect(
      failedModuleUrl(new TypeError(`error loading dynamically imported module: ${chunk}?retry=2`), ORIGIN),
    ).toBe(chunk);
  });

  it("is none when the message names no script of this origin (Safari's, another origin's, not a script)", () => {
    expect(failedModuleUrl(new TypeError("Importing a module script failed."), ORIGIN)).toBeUndefined();
    expect(
      failedModuleUrl(
        new TypeError("Failed to fetch dynamically imported module: https://evil.example/x.js"),
        ORIGIN,
      ),
    ).toBeUndefined();
    expect(
      failedModuleUrl(new TypeError(`Failed to fetch: ${ORIGIN}/assets/logo.svg`), ORIGIN),
    ).toBeUndefined();
    expect(failedModuleUrl("not an error", ORIGIN)).toBeUndefined();
  });
});

describe("loadOnce", () => {
  it("keeps a success, forgets a failure", async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error("offline");
      return calls;
    });
    await expect(load()).rejects.toThrow("offline");
    expect(await load()).toBe(2);
    expect(await load()).toBe(2);
    expect(calls).toBe(2);
  });
});

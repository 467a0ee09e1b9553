/** runStepsInSlices: every step runs, in order, with turns of the event loop between slices. */
import { describe, expect, it } from "vitest";
import type { Steps } from "../../core/session/steps.ts";
import { runStepsInSlices } from "./yield.ts";

function* counted(log: string[], n: number): Steps<number> {
  for (let i = 0; i < n; i++) {
    log.push(`step ${i}`);
    yield;
  }
  return n;
}

describe("runStepsInSlices", () => {
  it("runs every step and resolves to the result", async () => {
    const log: string[] = [];
    expect(await runStepsInSlices(counted(log, 0), 10)).toBe(0);
    expect(await runStepsInSlices(counted(log, 5), 10)).toBe(5);
    expect(log).toEqual(["step 0", "step 1", "step 2", "step 3", "step 4"]);
  });

  it("lets other tasks run between slices", async () => {
    const log: string[] = [];
    setTimeout(() => log.push("other task"), 0);
    // A zero-length slice: a turn after every step.
    await runStepsInSlices(counted(log, 3), -1);
    expect(log.indexOf("other task")).toBeGreaterThan(0);
    expect(log.indexOf("other task")).toBeLessThan(log.length - 1);
  });
});

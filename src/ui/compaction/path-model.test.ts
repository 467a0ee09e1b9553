// The shared path model: one per (path, estimator), the same numbers as core computes directly,
// built ahead in steps to the same result, and the session's planner kept on the path asked for.
import { describe, expect, it } from "vitest";
import { accountContext } from "../../core/compaction/breakdown.ts";
import { createPlanner } from "../../core/compaction/planner.ts";
import { loadFixture, pathThroughLine } from "../../core/compaction/test-fixture.ts";
import { PI_ESTIMATOR } from "../../core/compaction/tokens.ts";
import { pathModel, warmPathModel } from "./path-model.ts";

const settings = { keepRecentTokens: 20000, reserveTokens: 16384 };

describe("path model", () => {
  const fixture = loadFixture();

  it("is shared per path and agrees with core's account and planner", () => {
    const path = pathThroughLine(fixture, fixture.entries.length);
    const a = pathModel("s", path, PI_ESTIMATOR);
    expect(pathModel("s", path, PI_ESTIMATOR)).toBe(a);
    expect(a.account).toEqual(accountContext(path, PI_ESTIMATOR));
    const fresh = createPlanner();
    fresh.setPath(path);
    expect(a.planner.plan(settings)).toEqual(fresh.plan(settings));
    expect(a.planner.contextTokens()).toEqual(fresh.contextTokens());
  });

  it("follows the path asked for (a shorter one, then back) with a new version each time", () => {
    const long = pathThroughLine(fixture, fixture.entries.length);
    const short = long.slice(0, 300);
    const a = pathModel("t", long, PI_ESTIMATOR);
    const b = pathModel("t", short, PI_ESTIMATOR);
    expect(b.planner).toBe(a.planner);
    expect(b.planner.length).toBe(300);
    const c = pathModel("t", long, PI_ESTIMATOR);
    expect(c.version).toBeGreaterThan(b.version);
    expect(c.planner.length).toBe(long.length);
    const fresh = createPlanner();
    fresh.setPath(long);
    expect(c.planner.plan(settings)).toEqual(fresh.plan(settings));
  });

  it("built ahead step by step, gives what building it at once gives", async () => {
    const path = pathThroughLine(fixture, fixture.entries.length).slice();
    let steps = 0;
    await warmPathModel("u", path, PI_ESTIMATOR, async () => {
      steps++;
    });
    expect(steps).toBeGreaterThanOrEqual(4);
    const warmed = pathModel("u", path, PI_ESTIMATOR);
    expect(warmed.account).toEqual(accountContext(path, PI_ESTIMATOR));
    const fresh = createPlanner();
    fresh.setPath(path);
    expect(warmed.planner.plan(settings)).toEqual(fresh.plan(settings));
    expect(warmed.planner.listCutPoints()).toEqual(fresh.listCutPoints());
  });
});

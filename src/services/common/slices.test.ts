/** Work over a summarized range in slices (the coverage items, the offline summary) equals the same work done at once; aborted, it gives nothing. */
import { afterEach, describe, expect, it } from "vitest";
import { generateOfflineCompaction } from "../../core/compaction/offline-summary.ts";
import { planCompaction } from "../../core/compaction/plan.ts";
import { loadFixture, pathThroughLine } from "../../core/compaction/test-fixture.ts";
import { planCoverageItems } from "../../core/coverage/coverage.ts";
import { coverageItemsInSlices, offlineCompactionInSlices } from "./slices.ts";

function fixturePlan() {
  const fixture = loadFixture();
  const planned = planCompaction(pathThroughLine(fixture, fixture.lines.at(-1)!), {
    keepRecentTokens: 3000,
    reserveTokens: 16384,
  });
  if (!planned.ok) throw new Error(planned.reason);
  return planned.plan;
}

/** A fresh copy of a plan's ranges: message objects never read before. */
const cold = (plan: ReturnType<typeof fixturePlan>) => ({
  messagesToSummarize: {
    ...plan.messagesToSummarize,
    messages: structuredClone(plan.messagesToSummarize.messages),
  },
  turnPrefixMessages: {
    ...plan.turnPrefixMessages,
    messages: structuredClone(plan.turnPrefixMessages.messages),
  },
});

const g = globalThis as { requestIdleCallback?: unknown };
afterEach(() => {
  delete g.requestIdleCallback;
});

describe("work in slices", () => {
  it("gives the items read at once, in plain tasks", async () => {
    const plan = cold(fixturePlan());
    expect(await coverageItemsInSlices(plan)).toEqual(planCoverageItems(cold(fixturePlan())));
  });

  it("reads in the idle time offered (a slice ends when it does), over several callbacks", async () => {
    let callbacks = 0;
    g.requestIdleCallback = (cb: (d: { timeRemaining(): number; didTimeout: boolean }) => void) => {
      callbacks++;
      setTimeout(() => cb({ timeRemaining: () => 0, didTimeout: false }), 0);
      return callbacks;
    };
    const plan = cold(fixturePlan());
    const items = await coverageItemsInSlices(plan, { idle: true });
    expect(items).toEqual(planCoverageItems(cold(fixturePlan())));
    // With no idle time offered, each callback reads one batch of messages at most (1 ms floor).
    expect(callbacks).toBeGreaterThan(1);
  });

  it("gives up when aborted, and a later read of the same messages still gives every item", async () => {
    const plan = cold(fixturePlan());
    const controller = new AbortController();
    const pending = coverageItemsInSlices(plan, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
    expect(await coverageItemsInSlices(plan)).toEqual(planCoverageItems(cold(fixturePlan())));
  });

  it("writes the offline summary written at once; aborted, it gives nothing", async () => {
    const plan = fixturePlan();
    expect(await offlineCompactionInSlices(plan)).toEqual(generateOfflineCompaction(plan));
    const controller = new AbortController();
    const pending = offlineCompactionInSlices(plan, { signal: controller.signal });
    controller.abort();
    expect(await pending).toBeUndefined();
  });
});

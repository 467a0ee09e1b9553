/** One Undo offer per deleted session until the offer ends. */
import { describe, expect, it } from "vitest";
import { createUndoOffers } from "./undo-offers.ts";

describe("createUndoOffers", () => {
  it("offers a session's Undo once, again after the offer ended, and each session apart", () => {
    const offers = createUndoOffers();
    expect(offers.take("a")).toBe(true);
    expect(offers.take("a")).toBe(false);
    expect(offers.take("b")).toBe(true);
    offers.release("a");
    expect(offers.take("a")).toBe(true);
  });

  it("keeps the offers of one tab's services apart from another's", () => {
    const one = createUndoOffers();
    const other = createUndoOffers();
    expect(one.take("a")).toBe(true);
    expect(other.take("a")).toBe(true);
  });
});

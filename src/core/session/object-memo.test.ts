/** Memos kept on their objects: invisible to copies, JSON, clones and equality; frozen objects too; shared by name. */
import { describe, expect, it } from "vitest";
import { PI_ESTIMATOR } from "../compaction/tokens.ts";
import { objectMemo } from "./object-memo.ts";
import { user } from "./test-builders.ts";

describe("objectMemo", () => {
  it("keeps a value per object that no copy, JSON, clone or equality sees", () => {
    const memo = objectMemo<number>("test:a");
    const message = user("hello");
    const twin = user("hello");
    expect(memo.get(message)).toBeUndefined();
    expect(memo.has(message)).toBe(false);
    memo.set(message, 7);
    expect(memo.get(message)).toBe(7);
    expect(memo.has(message)).toBe(true);
    expect(memo.get({ ...message })).toBeUndefined();
    expect(memo.get(Object.assign({}, message))).toBeUndefined();
    expect(memo.get(structuredClone(message))).toBeUndefined();
    expect(JSON.stringify(message)).toBe(JSON.stringify(twin));
    expect(Object.keys(message)).toEqual(Object.keys(twin));
    expect(message).toEqual(twin);
    expect(memo.get(twin)).toBeUndefined();
  });

  it("never changes a value once set; a frozen object is memoized too; the same name is the same memo", () => {
    const memo = objectMemo<string>("test:b");
    const o = {};
    memo.set(o, "first");
    memo.set(o, "second");
    expect(memo.get(o)).toBe("first");
    const frozen = Object.freeze({ role: "user" });
    memo.set(frozen, "f");
    memo.set(frozen, "g");
    expect(memo.get(frozen)).toBe("f");
    expect(objectMemo<string>("test:b").get(o)).toBe("first");
    expect(objectMemo<string>("test:c").get(o)).toBeUndefined();
  });

  it("a message's token count is not carried to an edited copy of it", () => {
    const message = user("x".repeat(400));
    expect(PI_ESTIMATOR.estimateMessage(message)).toBe(100);
    const edited = { ...message, content: [{ type: "text" as const, text: "short" }] };
    expect(PI_ESTIMATOR.estimateMessage(edited)).toBe(2);
    PI_ESTIMATOR.seed(message, 5);
    expect(PI_ESTIMATOR.estimateMessage(message)).toBe(100);
  });
});

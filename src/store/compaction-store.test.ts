/**
 * The compaction store's state per session: a draft kept on reopen, cleared by reset; hydrated once;
 * parsing `/compact [focus]`.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  INITIAL_SESSION_STATE,
  parseCompactCommand,
  sessionState,
  useCompactionStore,
} from "./compaction-store.ts";

const st = () => useCompactionStore.getState();

beforeEach(() => useCompactionStore.setState({ bySession: {}, hydrated: {} }));

describe("compaction store by session", () => {
  it("keeps focus, keep-recent, the draft, the open state and banners per session", () => {
    st().openCompactionPreview("a", { focus: "parser" });
    st().setKeepRecent("a", 31000);
    st().setStatus("a", "ready", { draft: "DRAFT-A", draftSource: "offline" });
    st().patch("a", { notice: "overflow in a" });
    const b = sessionState(st(), "b");
    expect(b).toBe(INITIAL_SESSION_STATE);
    expect(b.previewOpen).toBe(false);
    expect(b.focus).toBe("");
    expect(b.notice).toBeNull();
    const a = sessionState(st(), "a");
    expect(a).toMatchObject({
      previewOpen: true,
      focus: "parser",
      keepRecentOverride: 31000,
      draft: "DRAFT-A",
    });
  });

  it("opening the review again keeps a draft under way; reset clears it and the previous draft", () => {
    st().setStatus("a", "ready", { draft: "D" });
    st().openCompactionPreview("a", { generate: true });
    expect(sessionState(st(), "a").draft).toBe("D");
    expect(sessionState(st(), "a").generateRequest).toBe(0);
    st().patch("a", { previous: { draft: "P", draftSource: "model", draftTarget: null, undoneFrom: null } });
    st().resetDraft("a");
    expect(sessionState(st(), "a")).toMatchObject({ draft: "", status: "idle", previous: null });
  });

  it("after Undo, offers the undone summary at its cut unless a draft is under way; its Redo withdraws it", () => {
    const offer = {
      draft: "UNDONE",
      draftSource: "offline" as const,
      draftTarget: { firstKeptEntryId: "k", tokensBefore: 9, readFiles: [], modifiedFiles: [] },
      undoneFrom: "c1",
    };
    st().patch("a", { keepRecentOverride: 500 });
    st().offerUndone("a", "c1", offer);
    expect(sessionState(st(), "a")).toMatchObject({
      status: "ready",
      draft: "UNDONE",
      undoneFrom: "c1",
      cutEntryId: "k",
      keepRecentOverride: null,
      undone: { entryId: "c1" },
    });
    // Opening the review keeps it; Redo of another compaction leaves it; its own Redo withdraws it.
    st().openCompactionPreview("a");
    expect(sessionState(st(), "a").draft).toBe("UNDONE");
    st().withdrawUndone("a", "other");
    expect(sessionState(st(), "a").draft).toBe("UNDONE");
    st().withdrawUndone("a", "c1");
    expect(sessionState(st(), "a")).toMatchObject({
      draft: "",
      undoneFrom: null,
      cutEntryId: null,
      undone: null,
    });
    // A draft under way stays.
    st().setStatus("b", "ready", { draft: "MINE" });
    st().offerUndone("b", "c2", { ...offer, undoneFrom: "c2" });
    expect(sessionState(st(), "b")).toMatchObject({ status: "ready", draft: "MINE", undoneFrom: null });
  });

  it("hydrates a saved review once, never over what the page already holds", () => {
    st().hydrate("a", { draft: "SAVED", status: "ready" });
    expect(sessionState(st(), "a").draft).toBe("SAVED");
    st().hydrate("a", { draft: "AGAIN" });
    expect(sessionState(st(), "a").draft).toBe("SAVED");
    st().patch("b", { focus: "live" });
    st().hydrate("b", { focus: "old" });
    expect(sessionState(st(), "b").focus).toBe("live");
  });

  it("a review opened before the saved one is read back keeps the saved draft and its cut", () => {
    st().openCompactionPreview("c");
    st().hydrate("c", { draft: "SAVED", status: "ready", cutEntryId: "e7", keepRecentOverride: 5000 });
    const s = sessionState(st(), "c");
    expect(s).toMatchObject({ previewOpen: true, draft: "SAVED", status: "ready", cutEntryId: "e7" });
    expect(s.keepRecentOverride).toBe(5000);
    // What the page changed before wins over the saved value.
    st().patch("d", { focus: "typed now" });
    st().hydrate("d", { focus: "saved", draft: "SAVED", status: "ready" });
    expect(sessionState(st(), "d")).toMatchObject({ focus: "typed now", draft: "SAVED" });
  });
});

describe("/compact [focus]", () => {
  it("parses the command and its focus, and nothing else", () => {
    expect(parseCompactCommand("/compact")).toEqual({ focus: "" });
    expect(parseCompactCommand("  /compact keep the parser decisions ")).toEqual({
      focus: "keep the parser decisions",
    });
    expect(parseCompactCommand("/compactify")).toBeUndefined();
    expect(parseCompactCommand("please /compact")).toBeUndefined();
  });
});

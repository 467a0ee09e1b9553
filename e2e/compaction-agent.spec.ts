/**
 * Compaction around agent runs, against the mock: ask mode (a session grows past a small window,
 * the preview opens with a summary generating; cut moved by keyboard and drag, focus added,
 * regenerate, edit, confirm; the stored/exported entry; the next request starts with the summary),
 * auto mode (compacts without asking, Undo), and overflow recovery (compact and retry once; a
 * second overflow stops with advice).
 */
import { expect, type Page, test } from "@playwright/test";
import {
  compactionSettings,
  exportOpen,
  newSession,
  parseJsonl,
  send,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { getChatRequests, type ReplySpec, scriptReplies, uniqueKey } from "./mock/client.ts";

test.setTimeout(180_000);

const para = (tag: string, n = 1800) =>
  `${tag}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(n / 27)).slice(0, n)}`;

function text(message: unknown): string {
  const c = (message as { content?: unknown }).content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (b as { text?: string }).text ?? "").join("");
  return "";
}

/** Three turns, the third reported past the 6k threshold of an 8k window. */
const GROW: ReplySpec[] = [
  { text: para("ANSWER-ONE"), usage: { prompt_tokens: 1200, completion_tokens: 450 } },
  { text: para("ANSWER-TWO"), usage: { prompt_tokens: 3000, completion_tokens: 450 } },
  { text: para("ANSWER-THREE"), usage: { prompt_tokens: 6500, completion_tokens: 450 } },
];

async function grow(page: Page): Promise<void> {
  for (const [i, q] of ["first question", "second question", "third question"].entries()) {
    await send(page, `${q} ${para(`Q${i + 1}`, 1200)}`);
    await waitIdle(page);
  }
}

test("ask mode: the preview opens past the threshold; move the cut, focus, regenerate, edit, confirm", async ({
  page,
}) => {
  const key = uniqueKey("ask");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW,
    // Summary requests (a split turn sends two at once: history and turn prefix).
    ...Array.from({ length: 4 }, () => ({
      text: ["## Goal\n", "SUMMARY-FROM-MOCK ", "streamed"],
      delayMs: 80,
    })),
    { text: "ANSWER-AFTER-COMPACTION", usage: { prompt_tokens: 2000, completion_tokens: 10 } },
  ]);
  await grow(page);
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await expect(preview).toContainText("Review the compaction before the next message");
  await expect(page.getByTestId("context-meter")).toContainText("Past the compaction threshold");
  await expect(page.getByTestId("summary-editor")).toHaveValue(/SUMMARY-FROM-MOCK streamed/);

  // Move the cut: keyboard up (keeps more), then drag it two rows down (rows are 40 px); the
  // draft is then stale.
  const handle = page.getByTestId("cut-handle");
  const start = await handle.textContent();
  await handle.focus();
  await page.keyboard.press("ArrowUp");
  await expect(handle).not.toHaveText(start ?? "");
  const up = await handle.textContent();
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 20, box.y + box.height / 2 + 86, { steps: 5 });
  await page.mouse.up();
  await expect(handle).not.toHaveText(up ?? "");
  await expect(page.getByTestId("confirm")).toBeDisabled();
  await expect(preview).toContainText("The cut moved since this summary was made");

  await page.getByTestId("focus").fill("FOCUS-ON-PARSER");
  await page.getByTestId("generate").click();
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready");
  await expect(page.getByTestId("summary-editor")).toHaveValue(/SUMMARY-FROM-MOCK streamed/);
  const chats = await getChatRequests(key);
  const userMessages = chats.map((c) =>
    text(
      (c.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === "user"),
    ),
  );
  const userMessage = userMessages.find((m) => m.includes("FOCUS-ON-PARSER")) ?? "";
  expect(userMessage).toContain("FOCUS-ON-PARSER");
  expect(userMessage).toContain("<conversation>");
  expect(userMessage).toContain("[User]: first question");
  expect(userMessage).toContain("[Assistant]: ANSWER-ONE");

  const editor = page.getByTestId("summary-editor");
  await editor.fill(`${await editor.inputValue()}\nEDITED-LINE`);
  await page.getByTestId("confirm").click();
  await expect(page.getByTestId("toast").filter({ hasText: /Compacted .* → .* tokens/ })).toBeVisible();
  await expect(preview).toHaveCount(0);

  const entries = parseJsonl((await exportOpen(page)).text);
  const compaction = entries.at(-1)!;
  expect(compaction.type).toBe("compaction");
  expect(String(compaction.summary)).toContain("SUMMARY-FROM-MOCK streamed");
  expect(String(compaction.summary)).toContain("EDITED-LINE");
  const keptIndex = entries.findIndex((e) => e.id === compaction.firstKeptEntryId);
  expect(keptIndex).toBeGreaterThan(1);
  expect(Number(compaction.tokensBefore)).toBeGreaterThan(6000);
  // pi's file lists, then Cutpoint's record: opened by the threshold (ask mode), written by the mock's
  // model, with the coverage of the edited summary; the summarizer's usage is on the entry (pi 1.6).
  expect(compaction.details).toMatchObject({
    readFiles: [],
    modifiedFiles: [],
    cutpoint: { trigger: "threshold", model: "mock-model" },
    coverage: { covered: expect.any(Number), total: expect.any(Number) },
  });
  expect(compaction.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });

  // The next request: the summary first, then the kept messages.
  await send(page, "fourth question");
  await waitIdle(page);
  const next = (await getChatRequests(key)).at(-1)!.body as {
    messages: { role: string; content: unknown }[];
  };
  const convo = next.messages.filter((m) => m.role !== "system");
  expect(text(convo[0])).toContain("<summary>");
  expect(text(convo[0])).toContain("EDITED-LINE");
  expect(text(convo.at(-1))).toContain("fourth question");
  expect(convo.some((m) => text(m).includes("first question"))).toBe(false);
  const kept = entries[keptIndex]!.message as { content: unknown };
  // The kept message may follow the summary in one user message (back-to-back user messages are joined).
  expect(convo.some((m) => text(m).includes(text(kept).slice(0, 40)))).toBe(true);
});

test("auto mode compacts without asking, shown with Undo", async ({ page }) => {
  const key = uniqueKey("auto");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "auto", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [...GROW, { text: "## Goal\nAUTO-SUMMARY" }]);
  await grow(page);
  const toast = page.getByTestId("toast").filter({ hasText: /compacted .* → .* tokens/ });
  await expect(toast).toBeVisible();
  // Progress replaced by its result: one notice for the event.
  await expect(page.getByTestId("toast").filter({ hasText: /compacting…/ })).toHaveCount(0);
  await expect(page.getByTestId("toast").filter({ hasText: /compact/i })).toHaveCount(1);
  await expect(page.getByTestId("compaction-preview")).toHaveCount(0);
  let entries = parseJsonl((await exportOpen(page)).text);
  const compaction = entries.at(-1)!;
  expect(compaction).toMatchObject({ type: "compaction" });
  expect(String(compaction.summary)).toContain("AUTO-SUMMARY");
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect
    .poll(async () => parseJsonl((await exportOpen(page)).text).at(-1)?.customType, { timeout: 20_000 })
    .toBe("cutpoint.move");
  entries = parseJsonl((await exportOpen(page)).text);
  // A move pi 1.6 sees: a custom entry under the entry before the compaction.
  expect(entries.at(-1)).toMatchObject({
    type: "custom",
    parentId: compaction.parentId,
    data: { targetId: compaction.parentId, fromId: compaction.id },
  });
});

test("overflow: compact and retry once; a second overflow stops with advice", async ({ page }) => {
  const key = uniqueKey("overflow");
  await page.goto("/");
  await setUpProvider(page, key);
  // Keeps the previous answer and the new question (a tiny keep would summarize the unsent question).
  await compactionSettings(page, { keep: 40 });
  await newSession(page);
  await scriptReplies(key, [
    { text: para("ANSWER-ONE") },
    { error: { preset: "context-openai" } },
    { text: "## Goal\nOVERFLOW-SUMMARY" },
    { text: para("ANSWER-AFTER-RETRY") },
    { error: { preset: "context-openai" } },
    { text: "## Goal\nSECOND-SUMMARY" },
    { text: "## Original Request\nSECOND-PREFIX" },
    { error: { preset: "context-openai" } },
    { text: "SHOULD-NOT-BE-REQUESTED" },
  ]);
  await send(page, `first question ${para("Q1", 1200)}`);
  await waitIdle(page);
  await send(page, "second question");
  await waitIdle(page);
  await expect(page.getByText("ANSWER-AFTER-RETRY").first()).toBeVisible();
  let chats = await getChatRequests(key);
  expect(chats).toHaveLength(4);
  const retry = chats[3]!.body as { messages: { role: string; content: unknown }[] };
  const convo = retry.messages.filter((m) => m.role !== "system");
  expect(text(convo[0])).toContain("OVERFLOW-SUMMARY");
  expect(text(convo.at(-1))).toContain("second question");
  const entries = parseJsonl((await exportOpen(page)).text);
  const compaction = entries.find((e) => e.type === "compaction")!;
  const failed = entries.find(
    (e) => e.type === "message" && (e.message as { stopReason?: string }).stopReason === "error",
  )!;
  // The failed reply stays on the path, hidden from the model by an omission edit (as pi 1.6
  // records it), and the compaction follows the edit.
  const omission = entries.find((e) => e.type === "context_edit" && e.targetId === failed.id)!;
  expect(omission).toMatchObject({ replacement: null });
  expect(compaction.parentId).toBe(omission.id);

  // A second overflow after the one retry stops with advice, no loop.
  await send(page, "third question");
  await waitIdle(page);
  // Said once, where it belongs: the ways out by the composer, not a toast as well.
  await expect(page.getByTestId("overflow-way-out")).toContainText(
    /Compacting once did not make enough room|nothing older to summarize/,
  );
  await expect(
    page
      .getByTestId("overflow-way-out")
      .getByRole("button", { name: /shorter|Drop/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId("toast").filter({ hasText: /enough room|still too long/ })).toHaveCount(0);
  chats = await getChatRequests(key);
  // The overflow, the two parts of the split turn's summary (asked one after the other), the retry.
  expect(chats).toHaveLength(8);
});

test("ask mode: a prompt sent while the preview is open waits, visibly queued, until Skip and send", async ({
  page,
}) => {
  const key = uniqueKey("queue");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW,
    ...Array.from({ length: 2 }, () => ({ text: "## Goal\nQUEUE-SUMMARY", delayMs: 50 })),
    // Under the threshold, so no new review opens after it (one past it would ask again at once).
    { text: "ANSWER-TO-THE-QUEUED-PROMPT", usage: { prompt_tokens: 5000, completion_tokens: 10 } },
  ]);
  await grow(page);
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await expect(page.getByTestId("summary-editor")).toHaveValue(/QUEUE-SUMMARY/);
  const chatsBefore = (await getChatRequests(key)).filter((c) =>
    JSON.stringify(c.body).includes("QUEUED-QUESTION"),
  ).length;
  expect(chatsBefore).toBe(0);

  await send(page, "QUEUED-QUESTION please");
  const note = page.getByTestId("queued-note");
  await expect(note).toContainText("Your message waits until you confirm or skip this compaction.");
  // Nothing was sent while it waits.
  const waiting = await getChatRequests(key);
  expect(waiting.some((c) => JSON.stringify(c.body).includes("QUEUED-QUESTION"))).toBe(false);

  await note.getByRole("button", { name: "Skip and send" }).click();
  await expect(preview).toHaveCount(0);
  await expect
    .poll(async () =>
      (await getChatRequests(key)).some((c) => JSON.stringify(c.body).includes("QUEUED-QUESTION")),
    )
    .toBe(true);
  await waitIdle(page);
  // Skipped: the request carried the whole uncompacted conversation, and no compaction was written.
  const sent = (await getChatRequests(key)).find((c) => JSON.stringify(c.body).includes("QUEUED-QUESTION"))!;
  expect(JSON.stringify(sent.body)).toContain("first question");
  expect(JSON.stringify(sent.body)).not.toContain("<summary>");
  const entries = parseJsonl((await exportOpen(page)).text);
  expect(entries.some((e) => e.type === "compaction")).toBe(false);
});

test("between turns: past the threshold after a tool result, the run compacts and goes on (auto)", async ({
  page,
}) => {
  const key = uniqueKey("between");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "auto", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW.slice(0, 2),
    {
      toolCalls: [{ name: "write", arguments: { path: "between.txt", content: "noted" } }],
      usage: { prompt_tokens: 6500, completion_tokens: 40 },
    },
    { text: "## Goal\nBETWEEN-SUMMARY" },
    { text: "DONE-AFTER-COMPACTION" },
  ]);
  for (const q of ["first question", "second question"]) {
    await send(page, `${q} ${para(q, 1200)}`);
    await waitIdle(page);
  }
  await send(page, "write a note");
  await waitIdle(page);
  await expect(page.getByText("DONE-AFTER-COMPACTION").first()).toBeVisible();
  const chats = await getChatRequests(key);
  // The write, then the summary, then the same run's next turn, which already sees the summary.
  expect(chats).toHaveLength(5);
  const next = chats[4]!.body as { messages: { role: string; content: unknown }[] };
  expect(next.messages.map(text).join("\n")).toContain("BETWEEN-SUMMARY");
  const entries = parseJsonl((await exportOpen(page)).text);
  const kinds = entries.map((e) => (e.type === "message" ? (e.message as { role: string }).role : e.type));
  expect(kinds.slice(-3)).toEqual(["toolResult", "compaction", "assistant"]);
});

test("a reply cut off at the output limit is compacted and retried once", async ({ page }) => {
  const key = uniqueKey("length");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW.slice(0, 2),
    { text: "CUT-OFF-PART", finishReason: "length", usage: { prompt_tokens: 3000, completion_tokens: 10 } },
    { text: "## Goal\nLENGTH-SUMMARY" },
    { text: "THE-WHOLE-ANSWER" },
  ]);
  for (const q of ["first question", "second question", "third question"]) {
    await send(page, `${q} ${para(q, 1200)}`);
    await waitIdle(page);
  }
  await expect(page.getByText("THE-WHOLE-ANSWER").first()).toBeVisible();
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(5);
  const retry = chats[4]!.body as { messages: { role: string; content: unknown }[] };
  const seen = retry.messages.map(text).join("\n");
  expect(seen).toContain("LENGTH-SUMMARY");
  // The cut-off attempt is hidden from the model, kept in the file, and the question is sent again.
  expect(seen).not.toContain("CUT-OFF-PART");
  expect(text(retry.messages.at(-1))).toContain("third question");
  const entries = parseJsonl((await exportOpen(page)).text);
  const cut = entries.find(
    (e) => e.type === "message" && (e.message as { stopReason?: string }).stopReason === "length",
  )!;
  expect(entries.find((e) => e.type === "context_edit" && e.targetId === cut.id)).toMatchObject({
    replacement: null,
  });
});

/**
 * A prompt that waits for the compaction review is durable (issue 36, part 2): sent while the
 * review waits, then a reload: the prompt is shown with its text in the composer area, the
 * review is one click away, and after Confirm it is sent once. Stop during the wait gives the
 * text back and sends nothing.
 */
import { expect, type Page, test } from "@playwright/test";
import {
  compactionSettings,
  composerInput,
  exportOpen,
  newSession,
  parseJsonl,
  send,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { getChatRequests, type ReplySpec, scriptReplies, uniqueKey } from "./mock/client.ts";

test.setTimeout(180_000);

const para = (tag: string, n = 1200) =>
  `${tag}: ${"lorem ipsum dolor sit amet ".repeat(Math.ceil(n / 27)).slice(0, n)}`;

const GROW: ReplySpec[] = [
  { text: para("ANSWER-ONE", 1800), usage: { prompt_tokens: 1200, completion_tokens: 450 } },
  { text: para("ANSWER-TWO", 1800), usage: { prompt_tokens: 3000, completion_tokens: 450 } },
  { text: para("ANSWER-THREE", 1800), usage: { prompt_tokens: 6500, completion_tokens: 450 } },
];

async function grow(page: Page): Promise<void> {
  for (const [i, q] of ["first question", "second question", "third question"].entries()) {
    await send(page, `${q} ${para(`Q${i + 1}`)}`);
    await waitIdle(page);
  }
}

const carrying = async (key: string, marker: string) =>
  (await getChatRequests(key)).filter((c) => JSON.stringify(c.body).includes(marker));

test("a prompt sent while the review waits survives a reload and is sent once after Confirm", async ({
  page,
}) => {
  const key = uniqueKey("durable");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW,
    ...Array.from({ length: 2 }, () => ({ text: "## Goal\nDURABLE-SUMMARY", delayMs: 30 })),
    { text: "ANSWER-TO-THE-WAITING-PROMPT", usage: { prompt_tokens: 2500, completion_tokens: 10 } },
  ]);
  await grow(page);
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready");

  await send(page, "WAITING-QUESTION survives");
  const note = page.getByTestId("queued-note");
  await expect(note).toContainText("Your message waits until you confirm or skip this compaction.");
  await expect(note.getByTestId("waiting-prompt")).toHaveText("WAITING-QUESTION survives");
  expect(await carrying(key, "WAITING-QUESTION")).toHaveLength(0);

  await page.reload();
  // After the reload: the prompt is there, with its text and its ways on; nothing was sent.
  await expect(note.getByTestId("waiting-prompt")).toHaveText("WAITING-QUESTION survives");
  await expect(note.getByRole("button", { name: "Skip and send" })).toBeVisible();
  await expect(note.getByRole("button", { name: "Edit" })).toBeVisible();
  await expect(note.getByRole("button", { name: "Cancel" })).toBeVisible();
  expect(await carrying(key, "WAITING-QUESTION")).toHaveLength(0);
  // The review is open, or one click away.
  if (!(await preview.isVisible())) await note.getByRole("button", { name: "Open the review" }).click();
  await expect(preview).toBeVisible();
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready");
  await page.getByTestId("confirm").click();
  await expect(preview).toHaveCount(0);

  await expect(page.getByText("ANSWER-TO-THE-WAITING-PROMPT").first()).toBeVisible();
  await waitIdle(page);
  await expect(note).toHaveCount(0);
  // Sent once, after the compaction: its request starts from the summary.
  const sent = await carrying(key, "WAITING-QUESTION");
  expect(sent).toHaveLength(1);
  expect(JSON.stringify(sent[0]!.body)).toContain("DURABLE-SUMMARY");
  const entries = parseJsonl((await exportOpen(page)).text);
  const kinds = entries.map((e) => (e.type === "message" ? (e.message as { role: string }).role : e.type));
  const users = entries.filter((e) => JSON.stringify(e).includes("WAITING-QUESTION survives"));
  expect(users).toHaveLength(1);
  expect(kinds.lastIndexOf("compaction")).toBeLessThan(kinds.lastIndexOf("user"));

  // Once more after a reload: it is not sent again.
  await page.reload();
  await expect(page.getByText("ANSWER-TO-THE-WAITING-PROMPT").first()).toBeVisible();
  await expect(note).toHaveCount(0);
  expect(await carrying(key, "WAITING-QUESTION")).toHaveLength(1);
});

test("Stop during the wait sends nothing and gives the text back", async ({ page }) => {
  const key = uniqueKey("waitstop");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 8000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW,
    ...Array.from({ length: 2 }, () => ({ text: "## Goal\nSTOP-SUMMARY", delayMs: 30 })),
  ]);
  await grow(page);
  await expect(page.getByTestId("preview-status")).toContainText("Draft ready");
  await send(page, "STOPPED-QUESTION comes back");
  await expect(page.getByTestId("waiting-prompt")).toHaveText("STOPPED-QUESTION comes back");
  await page.getByTestId("agent-composer").getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);
  await expect(composerInput(page)).toHaveValue("STOPPED-QUESTION comes back");
  await expect(page.getByTestId("queued-note")).toHaveCount(0);
  // Nothing waits any more: a reload shows no waiting prompt, and nothing was sent or written.
  await page.reload();
  await expect(page.getByTestId("agent-composer")).toBeVisible();
  await expect(page.getByTestId("queued-note")).toHaveCount(0);
  expect(await carrying(key, "STOPPED-QUESTION")).toHaveLength(0);
  const entries = parseJsonl((await exportOpen(page)).text);
  expect(JSON.stringify(entries)).not.toContain("STOPPED-QUESTION");
});

test("Stop during Generate keeps the partial summary, marked incomplete; Confirm asks once", async ({
  page,
}) => {
  const key = uniqueKey("partial");
  await page.goto("/");
  await setUpProvider(page, key);
  await compactionSettings(page, { mode: "ask", window: 100000, reserve: 2000, keep: 1000 });
  await newSession(page);
  await scriptReplies(key, [
    ...GROW.map((r) => ({ ...r, usage: { prompt_tokens: 1000, completion_tokens: 100 } })),
    // The summary: two chunks arrive, then it holds (still being written) until Stop.
    { text: ["## Goal\n", "PARTIAL-SUMMARY written so far", " and never finished"], holdAfterChunks: 3 },
  ]);
  await grow(page);
  await send(page, "/compact");
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await page.getByTestId("generate").click();
  const editor = page.getByTestId("summary-editor");
  await expect(editor).toHaveValue(/PARTIAL-SUMMARY written so far/);
  await preview.getByTestId("stop").click();
  // What it wrote stays, marked incomplete, and can be edited.
  await expect(editor).toHaveValue(/## Goal\nPARTIAL-SUMMARY written so far/);
  await expect(page.getByTestId("draft-incomplete")).toBeVisible();
  await expect(page.getByTestId("preview-status")).toContainText("incomplete");
  await expect(preview).not.toContainText("Nothing was written.");
  await editor.fill(`${await editor.inputValue()} HAND-FINISHED`);

  // Confirm asks once whether to keep it as it is; "Go back" writes nothing.
  await page.getByTestId("confirm").click();
  const ask = page.getByTestId("confirm-incomplete");
  await expect(ask).toContainText("stopped midway");
  await ask.getByRole("button", { name: "Go back to edit" }).click();
  await expect(ask).toHaveCount(0);
  let entries = parseJsonl((await exportOpen(page)).text);
  expect(entries.some((e) => e.type === "compaction")).toBe(false);
  await page.getByTestId("confirm").click();
  await page
    .getByTestId("confirm-incomplete")
    .getByRole("button", { name: "Keep it as it is and confirm" })
    .click();
  await expect(preview).toHaveCount(0);
  entries = parseJsonl((await exportOpen(page)).text);
  const compaction = entries.at(-1)!;
  expect(compaction.type).toBe("compaction");
  expect(String(compaction.summary)).toContain("PARTIAL-SUMMARY written so far HAND-FINISHED");
  expect(String(compaction.summary)).not.toContain("never finished");
});

test("an overflow with nothing to summarize: the ways out; edit it shorter and the next message is answered", async ({
  page,
}) => {
  const key = uniqueKey("deadend");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [
    { error: { preset: "context-llamacpp" } },
    { text: "SHORTER-ANSWERED", usage: { prompt_tokens: 300, completion_tokens: 5 } },
  ]);
  const huge = `HUGE-MESSAGE ${para("paste", 6000)}`;
  await send(page, huge);
  await waitIdle(page);
  const way = page.getByTestId("overflow-way-out");
  await expect(way).toContainText("Your last message did not fit the model's window.");
  await expect(way).toContainText("nothing older to summarize");
  for (const name of ["Edit and resend it shorter", "Drop it", "Use a model with a larger window"])
    await expect(way.getByRole("button", { name })).toBeVisible();
  // No tool output in this session: masking cannot help, so it is not offered.
  await expect(way.getByRole("button", { name: /^Mask/ })).toHaveCount(0);
  // Said once: the raw "compaction failed: Nothing to summarize" banner is not shown beside it.
  await expect(page.getByTestId("compaction-notice")).toHaveCount(0);
  // Still there after a reload (found from the session itself).
  await page.reload();
  await expect(way).toBeVisible();
  // What was recorded for the failure is what pi 1.6 records: the message, the error reply, the omission.
  let entries = parseJsonl((await exportOpen(page)).text);
  const kinds = (list: Record<string, unknown>[]) =>
    list.map((e) => (e.type === "message" ? (e.message as { role: string }).role : e.type));
  expect(kinds(entries).slice(-3)).toEqual(["user", "assistant", "context_edit"]);

  await way.getByRole("button", { name: "Edit and resend it shorter" }).click();
  await expect(composerInput(page)).toHaveValue(huge.trim());
  await expect(way).toHaveCount(0);
  await composerInput(page).fill("SHORTER question");
  await composerInput(page).press("Enter");
  await waitIdle(page);
  await expect(page.getByText("SHORTER-ANSWERED").first()).toBeVisible();
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(2);
  // The answered request carries the shorter message only (the huge one is on a side branch).
  expect(JSON.stringify(chats[1]!.body)).toContain("SHORTER question");
  expect(JSON.stringify(chats[1]!.body)).not.toContain("HUGE-MESSAGE");
  entries = parseJsonl((await exportOpen(page)).text);
  expect(kinds(entries).slice(-4)).toEqual(["context_edit", "custom", "user", "assistant"]);
  expect(JSON.stringify(entries)).toContain("HUGE-MESSAGE");
});

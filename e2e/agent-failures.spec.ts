/**
 * Every failure shows its message in plain words and loses nothing: after it, another message
 * works, and a reload finds every entry (the failed reply is kept as an error entry).
 */
import { expect, type Page, test } from "@playwright/test";
import {
  entryCount,
  exportOpen,
  newSession,
  parseJsonl,
  send,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { type ReplySpec, scriptReplies, setModels, uniqueKey } from "./mock/client.ts";

/** `hidden`: entries an overflow recovery adds (the omission edit that hides the failed reply). */
async function failThenRecover(page: Page, key: string, failure: ReplySpec[], expected: RegExp, hidden = 0) {
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [...failure, { text: "Recovered fine." }]);
  await send(page, "first try");
  await waitIdle(page);
  await expect(page.getByTestId("run-error")).toContainText(expected);
  await expect(page.getByTestId("reply-error")).toContainText(expected);
  // Said once on screen: the alert points at the failed reply (its words are for screen readers).
  await expect(page.getByTestId("run-error").locator("strong")).toHaveText(
    "The run stopped with the error above.",
  );
  await expect(page.getByTestId("run-error").locator(".sr-only")).toContainText(expected);
  expect(
    (await page.getByTestId("run-error").innerText()).match(/send again/gi)?.length ?? 0,
  ).toBeLessThanOrEqual(1);
  // model_change + system (prompt and tools) + user + failed assistant reply: nothing lost.
  await expect.poll(() => entryCount(page)).toBe(4 + hidden);
  await send(page, "second try");
  await waitIdle(page);
  await expect(page.getByTestId("agent-run")).toContainText("Recovered fine.");
  await expect(page.getByTestId("run-error")).toBeHidden();
  await page.reload();
  // pi 1.6's rule: the failed reply is not sent again; the next message goes out joined to the first.
  await expect.poll(() => entryCount(page)).toBe(6 + hidden);
  const lines = parseJsonl((await exportOpen(page)).text);
  const messages = lines
    .filter((l) => l.type === "message")
    .map((l) => l.message as Record<string, unknown>)
    .filter((m) => m.role !== "system");
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  expect(messages[1]).toMatchObject({ stopReason: "error" });
  expect(String(messages[1]!.errorMessage)).toMatch(expected);
  expect(JSON.stringify(lines)).not.toContain(key);
  return messages;
}

test("401: the key is rejected, said in plain words", async ({ page }) => {
  await failThenRecover(
    page,
    uniqueKey("e401"),
    [{ error: { preset: "auth" } }],
    /API key was rejected \(401/,
  );
});

test("500: retried with a visible countdown, then reported", async ({ page }) => {
  const key = uniqueKey("e500");
  const server = { error: { preset: "server" as const } };
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [server, server, server, server]);
  await send(page, "please fail");
  await expect(page.getByTestId("retry-status")).toContainText(/The provider failed .* retrying in \d+ s/);
  await waitIdle(page);
  await expect(page.getByTestId("run-error")).toContainText("The provider's server failed (500");
  await expect.poll(() => entryCount(page)).toBe(4);
});

test("context length exceeded: the provider's message is shown", async ({ page }) => {
  await failThenRecover(
    page,
    uniqueKey("ectx"),
    [{ error: { preset: "context-openai" } }],
    /maximum context length is 128000 tokens/,
    // The overflow is recovered as pi 1.6 does: the failed reply is hidden by an omission edit
    // (kept in the file), then a compaction is tried (nothing to summarize in a first message).
    1,
  );
});

test("dropped stream: what arrived is kept, the drop is explained", async ({ page }) => {
  const messages = await failThenRecover(
    page,
    uniqueKey("edrop"),
    [
      {
        text: ["Half ", "of ", "an ", "answer ", "that ", "never ", "ends"],
        cutAfterChunks: 5,
        delayMs: 200,
      },
    ],
    /connection dropped while the reply was streaming/,
  );
  expect(JSON.stringify(messages[1]!.content)).toContain("Half of");
});

test("429 with Retry-After: 'Rate limited — retrying in N s', then the reply arrives", async ({ page }) => {
  const key = uniqueKey("e429");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [{ error: { preset: "rate-limit", retryAfter: 3 } }, { text: "After the wait." }]);
  await send(page, "hurry");
  await expect(page.getByTestId("retry-status")).toContainText(/Rate limited — retrying in [1-3] s/);
  await waitIdle(page);
  await expect(page.getByTestId("agent-run")).toContainText("After the wait.");
  await expect(page.getByTestId("run-error")).toBeHidden();
  await expect.poll(() => entryCount(page)).toBe(4);
});

test("test connection explains 401 and a model the key cannot use", async ({ page }) => {
  const key = uniqueKey("conn");
  await page.goto("/");
  await setUpProvider(page, key, "gpt-4o-mini");
  await setModels(key, { models: ["mock-model"] });
  await page.getByRole("button", { name: "Settings" }).click();
  const dlg = page.locator('dialog[data-dialog="settings"]');
  await dlg.getByRole("button", { name: "Test connection" }).click();
  await expect(dlg.getByTestId("connection-result")).toContainText("“gpt-4o-mini” is not listed");
  await setModels(key, { error: { preset: "auth" } });
  await dlg.getByRole("button", { name: "Test connection" }).click();
  await expect(dlg.getByTestId("connection-result")).toContainText("The API key was rejected (401");
  // Removing the key: the field comes back empty.
  await dlg.getByRole("button", { name: "Remove key" }).click();
  await expect(dlg.getByRole("button", { name: "Save key" })).toBeVisible();
  await expect(dlg.getByTestId("api-key-display")).toBeHidden();
});

test("storage full: the message says so, the prompt stays in the composer, the session stays consistent", async ({
  page,
}) => {
  const key = uniqueKey("quota");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await send(page, "fits");
  await waitIdle(page);
  await expect.poll(() => entryCount(page)).toBe(4);
  // Every IndexedDB add now fails the way a full disk does.
  await page.evaluate(() => {
    const proto = IDBObjectStore.prototype as unknown as { add: unknown; __add?: unknown };
    proto.__add = proto.add;
    proto.add = () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  });
  await send(page, "does not fit");
  await waitIdle(page);
  await expect(page.getByTestId("run-error")).toContainText("storage for Cutpoint is full");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("does not fit");
  await expect.poll(() => entryCount(page)).toBe(4);
  await page.evaluate(() => {
    const proto = IDBObjectStore.prototype as unknown as { add: unknown; __add?: unknown };
    proto.add = proto.__add;
  });
  await page.getByRole("textbox", { name: "Message" }).press("Enter");
  await waitIdle(page);
  await expect(page.getByTestId("run-error")).toBeHidden();
  await page.reload();
  await expect.poll(() => entryCount(page)).toBe(6);
  const messages = parseJsonl((await exportOpen(page)).text).filter((l) => l.type === "message");
  expect(messages.map((m) => (m.message as { content: unknown }).content)).toContainEqual("does not fit");
});

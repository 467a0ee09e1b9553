/**
 * Two tabs on one session: only the tab that runs it may send (Web Lock); the other says the
 * session is running in another tab and sees the entries appear live.
 */
import { expect, test } from "@playwright/test";
import { composerInput, entryCount, newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { scriptReplies, uniqueKey } from "./mock/client.ts";

test("a second tab shows 'running in another tab' and sees new entries live", async ({ context }) => {
  const key = uniqueKey("tabs");
  const a = await context.newPage();
  await a.goto("/");
  await setUpProvider(a, key);
  await newSession(a);
  await send(a, "warm up");
  await waitIdle(a);
  await expect.poll(() => entryCount(a)).toBe(4);
  const url = a.url();
  expect(url).toContain("#/s/");
  expect(url).not.toContain(key);

  const b = await context.newPage();
  await b.goto(url);
  await expect.poll(() => entryCount(b)).toBe(4);
  await expect(b.getByTestId("running-elsewhere")).toBeHidden();

  await scriptReplies(key, [
    {
      text: "Writing.",
      toolCalls: [{ name: "write", arguments: { path: `tabs-${key.slice(-6)}.txt`, content: "x" } }],
      delayMs: 150,
    },
    { text: Array.from({ length: 20 }, (_, i) => `w${i} `), delayMs: 150 },
  ]);
  await send(a, "do two steps");
  await expect(b.getByTestId("running-elsewhere")).toBeVisible();
  await expect(composerInput(b)).toBeDisabled();
  // Entries appear in tab B while tab A is still running.
  await expect.poll(() => entryCount(b)).toBeGreaterThanOrEqual(6);
  await expect(a.getByRole("button", { name: "Stop" })).toBeVisible();
  await waitIdle(a);
  await expect.poll(() => entryCount(b)).toBe(8);
  await expect(b.getByTestId("running-elsewhere")).toBeHidden();
  await expect(composerInput(b)).toBeEnabled();

  // Now tab B may run it, and tab A sees that.
  await scriptReplies(key, [{ text: Array.from({ length: 20 }, (_, i) => `b${i} `), delayMs: 120 }]);
  await send(b, "my turn");
  await expect(a.getByTestId("running-elsewhere")).toBeVisible();
  await waitIdle(b);
  await expect.poll(() => entryCount(a)).toBe(10);
  await expect(a.getByTestId("running-elsewhere")).toBeHidden();
});

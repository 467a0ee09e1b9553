/**
 * A reload while a reply streams: the reply survives as an interrupted reply (its partial text,
 * checkpointed as it arrived) that the person keeps (saved as an aborted assistant message) or
 * drops; either way the next request never carries two user messages in a row (pi's rule: the
 * stopped reply is not sent, the next message is joined to the one before it).
 */
import { expect, type Page, test } from "@playwright/test";
import { exportOpen, newSession, parseJsonl, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { getChatRequests, type RecordedRequest, scriptReplies, uniqueKey } from "./mock/client.ts";
import { topBarButton } from "./pages/app-page.ts";

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

/** Roles of the request's messages without the system prompt. */
function roles(r: RecordedRequest): string[] {
  const body = r.body as { messages: { role: string }[] };
  return body.messages.map((m) => m.role).filter((role) => role !== "system");
}

function twoUsersInARow(list: string[]): boolean {
  return list.some((role, i) => role === "user" && list[i + 1] === "user");
}

/** The path from the leaf to the root of an exported file (leaf = last entry, or a leaf entry's target). */
function storedPathRoles(text: string): string[] {
  const entries = parseJsonl(text).slice(1) as { id: string; parentId: string | null; type: string }[];
  const byId = new Map(entries.map((e) => [e.id, e]));
  const last = entries.at(-1) as { type: string; targetId?: string | null; id: string } | undefined;
  let at = last?.type === "leaf" ? (last.targetId ?? null) : (last?.id ?? null);
  const out: string[] = [];
  while (at !== null) {
    const e = byId.get(at) as { parentId: string | null; type: string; message?: { role: string } };
    if (e.type === "message" && e.message?.role !== "system") out.unshift(e.message!.role);
    at = e.parentId;
  }
  return out;
}

async function startAndReload(page: Page, key: string): Promise<void> {
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await send(page, "warm up");
  await waitIdle(page);
  await scriptReplies(key, [{ text: words("w", 60), delayMs: 120 }]);
  await send(page, "tell me a long story");
  await expect(page.getByTestId("live-text")).toContainText("w8 ", { timeout: 15_000 });
  await page.reload();
}

test("a reply cut off by a reload comes back as an interrupted reply to keep", async ({ page }) => {
  const key = uniqueKey("reload-keep");
  await startAndReload(page, key);
  const box = page.getByTestId("interrupted-reply");
  await expect(box).toBeVisible();
  await expect(box).toContainText("Interrupted reply");
  await expect(box).toContainText("w0 w1 w2");
  await page.screenshot({ path: "/tmp/shots-writer/interrupted.png" });
  // Sending before deciding is refused (nothing written, the text stays in the box).
  await send(page, "too early");
  await expect(page.getByTestId("run-problem")).toContainText("keep it or drop it");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("too early");
  await box.getByRole("button", { name: "Keep it" }).click();
  await expect(box).toBeHidden();
  await expect(page.getByTestId("aborted-note")).toContainText("Interrupted: the page was reloaded");

  const { text } = await exportOpen(page);
  const last = parseJsonl(text).at(-1) as {
    message: { role: string; stopReason: string; errorMessage: string };
  };
  expect(last.message.role).toBe("assistant");
  expect(last.message.stopReason).toBe("aborted");
  expect(last.message.errorMessage).toMatch(/Interrupted/);

  const before = (await getChatRequests(key)).length;
  await send(page, "go on");
  await waitIdle(page);
  const after = (await getChatRequests(key)).slice(before);
  expect(after).toHaveLength(1);
  expect(roles(after[0]!).slice(-3)).toEqual(["user", "assistant", "user"]);
  expect(twoUsersInARow(roles(after[0]!))).toBe(false);
  expect(twoUsersInARow(storedPathRoles((await exportOpen(page)).text))).toBe(false);
});

test("dropping the interrupted reply: pi's rule, the next message goes out joined to it, never two user messages", async ({
  page,
}) => {
  const key = uniqueKey("reload-drop");
  await startAndReload(page, key);
  const box = page.getByTestId("interrupted-reply");
  await expect(box).toContainText("w0 w1 w2");
  // A narrow window in the dark theme: the reply and both buttons stay readable.
  await page.setViewportSize({ width: 800, height: 700 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(box.getByRole("button", { name: "Drop it" })).toBeInViewport();
  await page.screenshot({ path: "/tmp/shots-writer/interrupted-narrow-dark.png" });
  await box.getByRole("button", { name: "Drop it" }).click();
  await expect(box).toBeHidden();
  await expect(page.getByTestId("reply-missing")).toBeVisible();
  await page.screenshot({ path: "/tmp/shots-writer/reply-missing.png" });

  const before = (await getChatRequests(key)).length;
  await send(page, "and now this");
  await waitIdle(page);
  const after = (await getChatRequests(key)).slice(before);
  expect(after).toHaveLength(1);
  expect(roles(after[0]!).slice(-3)).toEqual(["user", "assistant", "user"]);
  expect(twoUsersInARow(roles(after[0]!))).toBe(false);
  const { text } = await exportOpen(page);
  const path = storedPathRoles(text);
  expect(path.slice(-4)).toEqual(["assistant", "user", "user", "assistant"]);
  await expect(page.getByTestId("reply-missing")).toBeHidden();
});

test("the interrupted reply shows at once after the reload, also in a page that never becomes idle", async ({
  page,
}) => {
  // The agent's code is fetched ahead when the page is first idle; a session with a cut-off reply
  // must not wait for that: here the page is never idle (requestIdleCallback never calls back).
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
  const key = uniqueKey("reload-busy");
  await startAndReload(page, key);
  await expect(page.getByTestId("interrupted-reply")).toContainText("w0 w1 w2");
});

test.describe("before the agent's code is there again", () => {
  // The page's own requests (a service worker would answer from its cache unseen).
  test.use({ serviceWorkers: "block" });

  test("after a reload mid-run, the run mark the old page left does not block a rename", async ({ page }) => {
    const key = uniqueKey("reload-mark");
    let hold = false;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/agent-instance-[^/]+\.js$/, async (route) => {
      if (hold) await released;
      await route.continue();
    });
    try {
      await page.goto("/");
      await setUpProvider(page, key);
      await newSession(page);
      await scriptReplies(key, [{ text: words("w", 60), delayMs: 120 }]);
      await send(page, "tell me a long story");
      await expect(page.getByTestId("live-text")).toContainText("w4 ", { timeout: 15_000 });
      // The reloaded page does not get the agent's code: nothing of it clears the old mark.
      hold = true;
      await page.reload();
      await (await topBarButton(page, "Rename")).click();
      const rename = page.locator('dialog[data-dialog="rename"]');
      await rename.getByRole("textbox").fill("Renamed after the reload");
      await rename.getByRole("textbox").press("Enter");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Renamed after the reload");
      await expect(page.getByText(/running in another tab/i)).toHaveCount(0);
      release();
      // With the code there, the cut-off reply is offered as usual.
      await expect(page.getByTestId("interrupted-reply")).toContainText("w0 w1 w2");
      const lines = parseJsonl((await exportOpen(page)).text);
      expect(lines.at(-1)).toMatchObject({ type: "session_info", name: "Renamed after the reload" });
    } finally {
      release();
    }
  });
});

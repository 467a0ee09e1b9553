/**
 * Two tabs of one session send, rename and label at the same moment, round after round. The tab
 * that loses the race writes nothing and says so; writes from a tab that does not run the session
 * (and the running tab's own writes while its reply streams) are refused, never landing mid-run.
 * The stored tree has exactly what the person made: one root, no fork, no two user messages in a
 * row.
 */
import { expect, type Page, test } from "@playwright/test";
import {
  composerInput,
  exportOpen,
  newSession,
  parseJsonl,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { releaseReply, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, topBarButton } from "./pages/app-page.ts";

// Four rounds: each round races both tabs' sends, renames and labels (six took over 90 s on a loaded 2-core machine).
const ROUNDS = 4;
const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i} `);

type Entry = {
  id: string;
  parentId: string | null;
  type: string;
  name?: string;
  label?: string;
  message?: { role: string };
};

async function openRename(page: Page, where: "sidebar" | "top"): Promise<void> {
  if (where === "top") await (await topBarButton(page, "Rename")).click();
  else
    await page
      .locator(".session-item")
      .first()
      .getByRole("button", { name: /^Rename / })
      .click();
  await expect(page.locator('dialog[data-dialog="rename"]')).toBeVisible();
}

async function fillRename(page: Page, name: string): Promise<void> {
  await page.locator('dialog[data-dialog="rename"] input').fill(name);
}

const saveRename = (page: Page) =>
  page.locator('dialog[data-dialog="rename"]').getByRole("button", { name: "Save" }).click();

async function openLabel(page: Page, rowText: string, label: string): Promise<void> {
  const row = new AppPage(page).timelineRow(rowText).first();
  // The row toolbar follows the pointer: move it away first so that hovering the row moves it.
  await page.getByTestId("session-title").hover();
  await row.hover();
  await row.getByTestId("row-actions").getByRole("button", { name: "Label", exact: true }).click();
  const dialog = page.locator('dialog[data-dialog="label"]');
  await dialog.getByLabel("Label").fill(label);
}

const saveLabel = (page: Page) =>
  page.locator('dialog[data-dialog="label"]').getByRole("button", { name: "Save" }).click();

async function cancelLabel(page: Page): Promise<void> {
  const dialog = page.locator('dialog[data-dialog="label"]');
  if (await dialog.isVisible()) await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
}

const toast = (page: Page, text: RegExp) => page.getByTestId("toast").filter({ hasText: text }).last();

/** Error toasts stay until dismissed; they would cover the rows the next round clicks. */
async function dismissToasts(page: Page): Promise<void> {
  const toasts = page.getByTestId("toast");
  while ((await toasts.count()) > 0) await toasts.first().getByRole("button", { name: "Dismiss" }).click();
}

test("two tabs sending, renaming and labelling at once never fork the session", async ({ context }) => {
  test.setTimeout(150_000);
  const key = uniqueKey("two-tabs-writes");
  const a = await context.newPage();
  await a.goto("/");
  await setUpProvider(a, key);
  await newSession(a);
  await composerInput(a).fill("warm up");
  await composerInput(a).press("Enter");
  await waitIdle(a);
  const b = await context.newPage();
  await b.goto(a.url());
  await expect(new AppPage(b).timelineRow("warm up").first()).toBeVisible();

  const losers: string[] = [];
  let notSentCount = 0;
  let expectedUsers = 1;
  for (let round = 1; round <= ROUNDS; round++) {
    // The reply stops after a few words until the refused writes below are checked (released then).
    await scriptReplies(key, [{ text: words(`r${round}-`, 30), delayMs: 20, holdAfterChunks: 4 }]);
    await composerInput(a).fill(`from A, round ${round}`);
    await composerInput(b).fill(`from B, round ${round}`);
    // Both tabs send at the same moment.
    await Promise.all([composerInput(a).press("Enter"), composerInput(b).press("Enter")]);
    const stop = (p: Page) => p.getByTestId("agent-composer").getByRole("button", { name: "Stop" });
    const elsewhere = (p: Page) => p.getByTestId("running-elsewhere");
    // Both tabs show Stop for a moment (a send runs from its first turn, before it tries the run
    // lock): the winner is the tab still running once the other says it runs elsewhere.
    let loserName = "";
    await expect
      .poll(
        async () => {
          if ((await stop(a).isVisible()) && (await elsewhere(b).isVisible())) loserName = "B";
          else if ((await stop(b).isVisible()) && (await elsewhere(a).isVisible())) loserName = "A";
          return loserName;
        },
        { timeout: 10_000 },
      )
      .not.toBe("");
    const [winner, loser] = loserName === "B" ? [a, b] : [b, a];
    losers.push(loserName);
    expectedUsers++;
    // The losing tab wrote nothing and says so: "Not sent" when its send lost the lock race, or
    // only the "running in another tab" notice when it saw the run first (its box was disabled).
    await expect(elsewhere(loser)).toBeVisible();
    const problem = loser.getByTestId("run-problem");
    if (await problem.isVisible()) {
      await expect(problem).toContainText("Not sent: this session is running in another tab");
      notSentCount++;
    }
    await expect(composerInput(loser)).toHaveValue(`from ${loserName}, round ${round}`);
    await expect(stop(loser)).toBeHidden();

    // While the winner's reply streams: the other tab's rename and label are refused...
    await openRename(loser, "sidebar");
    await fillRename(loser, `loser rename ${round}`);
    await saveRename(loser);
    await expect(toast(loser, /running in another tab/)).toBeVisible();
    // (the newest rows: the timeline is virtualized and follows its end)
    const sent = `from ${loserName === "A" ? "B" : "A"}, round ${round}`;
    await openLabel(loser, sent, `loser label ${round}`);
    await saveLabel(loser);
    await expect(toast(loser, /running in another tab/)).toBeVisible();
    await cancelLabel(loser);
    await dismissToasts(loser);
    // ...and so is the winner's own rename while its loop writes.
    await openRename(winner, "top");
    await fillRename(winner, `winner rename ${round}`);
    await saveRename(winner);
    await expect(toast(winner, /A reply is being written/)).toBeVisible();
    await dismissToasts(winner);
    await expect(winner.getByRole("button", { name: "Stop" })).toBeVisible();
    await releaseReply(key);
    await waitIdle(winner);
    await expect(new AppPage(winner).timelineRow(`r${round}-29`).first()).toBeVisible();
    await expect(composerInput(loser)).toBeEnabled({ timeout: 10_000 });

    // Idle: both rename and label at the same moment; both land, one after the other.
    await Promise.all([openRename(a, "sidebar"), openRename(b, "sidebar")]);
    await Promise.all([fillRename(a, `A name ${round}`), fillRename(b, `B name ${round}`)]);
    await Promise.all([saveRename(a), saveRename(b)]);
    await Promise.all([openLabel(a, sent, `A label ${round}`), openLabel(b, sent, `B label ${round}`)]);
    await Promise.all([saveLabel(a), saveLabel(b)]);
    await expect(a.locator('dialog[data-dialog="label"]')).toBeHidden();
    await expect(b.locator('dialog[data-dialog="label"]')).toBeHidden();
  }
  const { text } = await exportOpen(a);
  const entries = parseJsonl(text).slice(1) as Entry[];
  const roots = entries.filter((e) => e.parentId === null);
  const children = new Map<string, number>();
  for (const e of entries) if (e.parentId) children.set(e.parentId, (children.get(e.parentId) ?? 0) + 1);
  const forks = [...children.values()].filter((n) => n > 1).length;
  console.log(
    `two tabs: ${ROUNDS} rounds, losers ${losers.join("")} (${notSentCount} refused by the lock, the others saw the run first), ${entries.length} entries, roots ${roots.length}, forks ${forks}`,
  );
  expect(roots).toHaveLength(1);
  expect(forks).toBe(0);
  // One chain: each entry's parent is the entry before it.
  expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
  const chat = entries
    .filter((e) => e.type === "message" && e.message?.role !== "system")
    .map((e) => e.message!.role);
  expect(chat.some((role, i) => role === "user" && chat[i + 1] === "user")).toBe(false);
  expect(chat.filter((r) => r === "user")).toHaveLength(expectedUsers);
  // Only the renames and labels made while nobody ran were written: two of each per round.
  expect(
    entries
      .filter((e) => e.type === "session_info")
      .map((e) => e.name?.split(" ")[0])
      .sort(),
  ).toEqual([...Array(ROUNDS).fill("A"), ...Array(ROUNDS).fill("B")]);
  expect(entries.filter((e) => e.type === "label")).toHaveLength(2 * ROUNDS);
  expect(entries.some((e) => /loser|winner/.test(`${e.name ?? ""}${e.label ?? ""}`))).toBe(false);
});

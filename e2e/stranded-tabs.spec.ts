/**
 * Issue 36, part 7: another tab overtakes this one. Confirm in both tabs: the second says the
 * session moved on and writes nothing. A mask planned before the other tab compacted says the
 * plan changed and masks the new count only when asked. Deleting a session while another tab
 * streams its reply is refused, and that tab keeps its reply.
 */
import { expect, type Page, test } from "@playwright/test";
import { assistant, msg, toolResult, user } from "../src/core/session/test-builders.ts";
import { exportOpen, newSession, parseJsonl, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { writeSessionFile } from "./lib/session-file.ts";
import { releaseReply, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";

const TURNS = 24;

/** A session of TURNS turns, each reading a file of ~600 tokens: every output can be masked. */
function sessionWithOutputs(): { path: string; title: string } {
  const title = `masking race ${Math.random().toString(36).slice(2, 7)}`;
  const entries: unknown[] = [];
  let parent: string | null = null;
  const add = (id: string, m: Parameters<typeof msg>[2]) => {
    entries.push(msg(id, parent, m));
    parent = id;
  };
  for (let i = 0; i < TURNS; i++) {
    add(`u${i}`, user(i === 0 ? title : `read file ${i}`));
    add(`c${i}`, {
      ...assistant(""),
      content: [{ type: "toolCall", id: `call${i}`, name: "read", arguments: { path: `f${i}.txt` } }],
      stopReason: "toolUse",
    });
    add(`r${i}`, { ...toolResult(`line ${i}\n${"data ".repeat(500)}`), toolCallId: `call${i}` });
    add(`a${i}`, assistant(`read f${i}.txt`));
  }
  return { path: writeSessionFile("masking-race", entries).path, title };
}

/** Opens the compaction review of the open session with a cut that summarizes something. */
async function openReview(page: Page, keep = 500): Promise<void> {
  await page.getByTestId("compact-open-top").click();
  await expect(page.getByTestId("compaction-preview")).toBeVisible();
  await page.getByTestId("keep-recent").fill(String(keep));
  await expect(page.getByTestId("preview-numbers")).toBeVisible();
}

const countOf = (text: string | null) =>
  Number(/Mask ([\d,]+) output/.exec(text ?? "")![1]!.replace(/,/g, ""));

test("two tabs: Confirm in both, the second says the session moved on; a mask planned before says its plan changed", async ({
  context,
}) => {
  const file = sessionWithOutputs();
  const a = await context.newPage();
  const appA = new AppPage(a);
  await appA.goto();
  await appA.importByPicker(file.path);
  await expect(appA.title).toHaveText(file.title);
  // A keeps the last few turns (their outputs stay in context); B keeps less.
  await openReview(a, 2500);
  const b = await context.newPage();
  await b.goto(a.url());
  await expect(new AppPage(b).title).toHaveText(file.title);
  await openReview(b);
  // B plans a mask of every tool output (anywhere, of any size).
  const masking = b.getByTestId("masking");
  await masking.locator("summary").click();
  await masking.getByLabel("anywhere").check();
  await masking.getByTestId("mask-min-tokens").fill("0");
  const planButton = b.getByTestId("mask-apply");
  await expect.poll(async () => countOf(await planButton.textContent())).toBeGreaterThan(2);
  const planned = countOf(await planButton.textContent());
  console.log(`mask planned in B: ${planned} outputs`);
  // Both tabs have a draft ready; A confirms first.
  for (const p of [a, b]) await p.getByTestId("offline").click();
  for (const p of [a, b]) await expect(p.getByTestId("summary-editor")).toHaveValue(/generated offline/);
  await a.getByTestId("confirm").click();
  await expect(a.getByTestId("compaction-preview")).toHaveCount(0);

  // B: the review says the session moved on and its Confirm writes nothing.
  const review = b.getByTestId("compaction-preview");
  await expect(review).toContainText("The session moved on since this draft was made");
  await expect(b.getByTestId("confirm")).toBeDisabled();
  // B's mask says its plan changed, with the new count, instead of a silently changed button.
  const overtaken = b.getByTestId("mask-overtaken");
  await expect(overtaken).toContainText(
    /The session moved on since this plan was shown: now [\d,]+ outputs? would be masked \(the plan you saw masked [\d,]+\)\. Nothing was masked\./,
  );
  await expect(b.getByTestId("mask-apply")).toHaveCount(0);
  const now = countOf(await b.getByTestId("mask-apply-new").textContent());
  expect(now).toBeLessThan(planned);
  await expect(overtaken).toContainText(`the plan you saw masked ${planned}`);
  await b.screenshot({ path: test.info().outputPath("overtaken.png") });
  let lines = parseJsonl((await exportOpen(b)).text);
  expect(lines.filter((l) => l.type === "compaction")).toHaveLength(1);
  expect(lines.filter((l) => l.type === "context_edit")).toHaveLength(0);
  // Applying the new plan masks the new count, once; the notice goes away.
  await b.getByTestId("mask-apply-new").click();
  await expect(overtaken).toHaveCount(0);
  await expect(b.getByTestId("mask-apply")).toHaveText("Mask 0 outputs");
  lines = parseJsonl((await exportOpen(b)).text);
  expect(lines.filter((l) => l.type === "compaction")).toHaveLength(1);
  expect(lines.filter((l) => l.type === "context_edit")).toHaveLength(now);
});

test("two tabs: deleting a session while the other tab streams its reply is refused; the reply is kept", async ({
  context,
}) => {
  const key = uniqueKey("delete-running");
  const a = await context.newPage();
  await a.goto("/");
  await setUpProvider(a, key);
  await newSession(a);
  const words = Array.from({ length: 12 }, (_, i) => `word${i} `);
  await scriptReplies(key, [{ text: words, delayMs: 20, holdAfterChunks: 3 }]);
  await send(a, "keep this one");
  await expect(a.getByTestId("live-text")).toContainText("word0");
  const b = await context.newPage();
  await b.goto(a.url());
  await expect(b.getByTestId("running-elsewhere")).toBeVisible();
  const appB = new AppPage(b);
  await appB.showSidebar();
  await b.getByRole("button", { name: /^Delete keep this one/ }).click();
  await b.locator('dialog[data-dialog="delete"]').getByRole("button", { name: "Delete" }).click();
  await expect(appB.toast(/Not deleted: this session is running in another tab/)).toBeVisible();
  await expect(appB.toast(/Deleted/)).toHaveCount(0);
  await expect(appB.item("keep this one")).toHaveCount(1);
  // The streaming tab goes on and keeps its whole reply, also after a reload (no undo window passing).
  await releaseReply(key);
  await waitIdle(a);
  await expect(a.getByTestId("agent-run")).toContainText("word11");
  await a.reload();
  await expect(new AppPage(a).timelineRow("word11").first()).toBeVisible();
  const messages = parseJsonl((await exportOpen(a)).text).filter((l) => l.type === "message");
  expect(JSON.stringify(messages.at(-1))).toContain("word11");
});

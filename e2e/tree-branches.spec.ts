/**
 * The session tree against the mock model: branch from an earlier message (Edit and resend),
 * switch between branches in place, navigate with a branch summary (preview, streamed summary,
 * edit, confirm) and find the summary in the next model request.
 */
import { expect, type Page, test } from "@playwright/test";
import {
  composerInput,
  exportOpen,
  newSession,
  parseJsonl,
  send,
  setUpProvider,
  waitIdle,
} from "./agent-helpers.ts";
import { getChatRequests, scriptReplies, uniqueKey } from "./mock/client.ts";

function timelineRow(page: Page, text: string) {
  return page.getByTestId("timeline").locator("li").filter({ hasText: text });
}

test("edit and resend makes a branch; switch branches; navigate with an edited branch summary", async ({
  page,
}) => {
  const key = uniqueKey("tree-branch");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [
    { text: "Answer one" },
    { text: "Answer two" },
    { text: "Answer two-b" },
    { text: ["SUMMARY-", "OF-LEFT-BRANCH"] },
    { text: "Answer three" },
  ]);
  await send(page, "first question");
  await waitIdle(page);
  await send(page, "second question");
  await waitIdle(page);
  await expect(timelineRow(page, "Answer two")).toBeVisible();

  // Edit and resend the second question: the branch left is offered a summary (skipped here; see
  // tree-moves.spec.ts), then its text goes back into the composer.
  const dlg = page.locator('dialog[data-dialog="navigate"]');
  const second = timelineRow(page, "second question");
  await second.hover();
  await second.getByRole("button", { name: "Edit and resend" }).click();
  await expect(dlg.getByTestId("nav-left")).toContainText("2 entries");
  await dlg.getByRole("button", { name: "Skip summary" }).click();
  await expect(dlg).toBeHidden();
  await expect(composerInput(page)).toHaveValue("second question");
  await expect(timelineRow(page, "Answer two")).toHaveCount(0);
  await composerInput(page).fill("second question, edited");
  await composerInput(page).press("Enter");
  await waitIdle(page);
  await expect(timelineRow(page, "Answer two-b")).toBeVisible();

  // The edited message sits where the path forks: branch 2 of 2, switchable in place.
  const edited = timelineRow(page, "second question, edited");
  await expect(edited.getByTestId("branch-position")).toHaveText("2 / 2");
  await edited.getByRole("button", { name: "Previous branch" }).click();
  await dlg.getByRole("button", { name: "Skip summary" }).click();
  await expect(timelineRow(page, "Answer two").first()).toBeVisible();
  await expect(timelineRow(page, "Answer two-b")).toHaveCount(0);
  await expect(timelineRow(page, "second question").getByTestId("branch-position")).toHaveText("1 / 2");
  await timelineRow(page, "second question").getByRole("button", { name: "Next branch" }).click();
  await dlg.getByRole("button", { name: "Skip summary" }).click();
  await expect(timelineRow(page, "Answer two-b")).toBeVisible();

  // Tree view: both branches, the current leaf highlighted; go to the other branch's reply.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const tree = page.getByTestId("tree-list");
  await expect(tree).toBeFocused();
  await expect(tree.locator('[aria-current="location"]')).toContainText("Answer two-b");
  await tree
    .getByRole("option")
    .filter({ hasText: /^.*Answer two$/ })
    .click();
  await expect(dlg).toBeVisible();
  await expect(dlg.getByTestId("nav-target")).toContainText("Answer two");
  await expect(dlg.getByTestId("nav-ancestor")).toContainText("Answer one");
  await expect(dlg.getByTestId("nav-left")).toContainText("2 entries");
  await dlg.getByRole("button", { name: "Generate summary" }).click();
  const summary = dlg.getByTestId("nav-summary");
  await expect(summary).toHaveValue(/SUMMARY-OF-LEFT-BRANCH/);
  await expect(dlg.getByRole("button", { name: "Confirm" })).toBeEnabled();
  await summary.fill(`${await summary.inputValue()}\nEDITED-BY-PERSON`);
  await dlg.getByRole("button", { name: "Confirm" }).click();
  await expect(dlg).toBeHidden();
  await expect(tree.locator('[aria-current="location"]')).toContainText("Branch summary");
  await page.getByRole("button", { name: "Close the tree" }).click();

  // The next request carries the edited branch summary and the branch we moved to.
  await send(page, "third question");
  await waitIdle(page);
  const requests = await getChatRequests(key);
  const last = JSON.stringify(requests.at(-1)?.body);
  expect(last).toContain("EDITED-BY-PERSON");
  expect(last).toContain("SUMMARY-OF-LEFT-BRANCH");
  expect(last).toContain("Answer two");
  expect(last).not.toContain("Answer two-b");
  // The summary request itself saw the branch being left.
  expect(JSON.stringify(requests.at(-2)?.body)).toContain("second question, edited");

  // The file: branch_summary written as pi 1.6 does (parentId = the new leaf, fromId = the leaf
  // left: the move that put it on "Answer two-b"), nothing deleted, every move a cutpoint.move.
  const { text } = await exportOpen(page);
  const lines = parseJsonl(text);
  const bs = lines.find((l) => l.type === "branch_summary")!;
  const answerTwo = lines.find(
    (l) => l.type === "message" && JSON.stringify(l.message).includes('"Answer two"'),
  )!;
  const answerTwoB = lines.find(
    (l) => l.type === "message" && JSON.stringify(l.message).includes('"Answer two-b"'),
  )!;
  expect(bs.parentId).toBe(answerTwo.id);
  const left = lines.find((l) => l.id === bs.fromId)!;
  expect(left).toMatchObject({ type: "custom", customType: "cutpoint.move", parentId: answerTwoB.id });
  expect(lines.filter((l) => l.type === "leaf")).toEqual([]);
  // Edit and resend, the two switches: three moves.
  expect(lines.filter((l) => l.customType === "cutpoint.move").length).toBe(3);
});

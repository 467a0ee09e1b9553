/**
 * Sessions pi 1.6 wrote: imported, they show their own system prompt and tools, their context
 * edits and usage entries, and "what the model sees" holds as many messages as pi 1.6 sends for
 * it (pi's request, back-to-back user messages joined as Cutpoint joins them).
 */
import { copyFileSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { joinUserTurns, piRequest } from "./lib/pi-request-oracle.ts";
import { AppPage } from "./pages/app-page.ts";

const DIR = resolve(import.meta.dirname, "../../shared/fixtures/pi16");
const view = (name: string) =>
  JSON.parse(readFileSync(resolve(DIR, `${name}.pi16-view.json`), "utf8")) as {
    messages: { role: string; entryId: string }[];
  };

async function importAndOpen(app: AppPage, name: string, firstUser: RegExp, entries: string) {
  await app.goto();
  await app.importByPicker(resolve(DIR, `${name}.jsonl`));
  await expect.poll(() => app.entryCountOf(firstUser)).toBe(entries);
  await app.open(firstUser);
}

/**
 * How many chat messages pi 1.6 sends for the file (its context through pi-ai's transform, on a
 * copy: pi never gets a path in the shared folder), back-to-back user messages joined as
 * Cutpoint's requests join them; pi's context length when pi is not installed.
 */
function sent(name: string): { count: number; roles?: string[] } {
  const copy = test.info().outputPath(`${name}.jsonl`);
  copyFileSync(resolve(DIR, `${name}.jsonl`), copy);
  const pi = piRequest(copy);
  if (!pi) return { count: view(name).messages.length };
  const joined = joinUserTurns(pi);
  return { count: joined.length, roles: joined.map((m) => (m.role === "tool" ? "toolResult" : m.role)) };
}

async function modelViewCount(app: AppPage): Promise<string> {
  await app.page.getByTestId("context-meter").click();
  const panel = app.page.getByTestId("token-timeline-panel");
  await panel.getByLabel("What the model sees").check();
  await expect(app.page.getByTestId("model-view")).toBeVisible();
  return (await panel.locator(".cp-note").first().textContent()) ?? "";
}

test("a pi 1.6 session with system messages and usage: its own prompt, tools and usage are shown", async ({
  page,
}) => {
  const app = new AppPage(page);
  await importAndOpen(app, "A-system-usage", /Read a\.ts please/, "9");
  const systemRows = app.timelineRows.filter({ hasText: "System prompt" });
  await expect(systemRows).toHaveCount(2);
  await expect(systemRows.first()).toContainText("You are an expert coding assistant.");
  await expect(systemRows.nth(1)).toContainText("+bash");
  await expect(app.timelineRows.filter({ hasText: /^.*Usage/ }).first()).toBeVisible();

  // The session's own prompt (replayed), not Cutpoint's default.
  await page.getByRole("button", { name: "System prompt", exact: true }).click();
  const dlg = page.locator('dialog[data-dialog="system-prompt"]');
  await expect(dlg).toContainText("Declared in the session itself");
  await expect(dlg).toContainText("You are an expert coding assistant.");
  // The second system message removed write and added bash.
  await expect(dlg.getByTestId("declared-tools")).toHaveText("Tools declared to the model: read, bash");
  await dlg.getByRole("button", { name: "Cancel" }).click();

  const pi = sent("A-system-usage");
  expect(await modelViewCount(app)).toContain(`${pi.count} messages are sent to the model`);
  const roles = await page
    .getByTestId("model-view")
    .locator("li")
    .evaluateAll((els) => els.map((el) => el.getAttribute("data-role")));
  if (pi.roles) expect(roles).toEqual(pi.roles.slice(0, roles.length));
});

test("a pi 1.6 session with context edits: edited and omitted entries are marked, the original one click away", async ({
  page,
}) => {
  const app = new AppPage(page);
  await importAndOpen(app, "B-context-edit", /First question/, "12");
  const edited = app.timelineRows.filter({ has: page.getByTestId("row-edit") });
  await expect(edited.first()).toBeVisible();
  const omitted = edited.filter({ hasText: "omitted for the model" });
  await expect(omitted.first()).toHaveClass(/\bout\b/);
  await omitted.first().locator(".row-head").click();
  await expect(omitted.first().getByTestId("edit-note")).toContainText("omits this entry");
  const replaced = edited.filter({ hasText: "edited for the model" });
  await replaced.first().locator(".row-head").click();
  await expect(replaced.first().getByTestId("edit-note")).toContainText("replaces its content for the model");
  await expect(app.timelineRows.filter({ hasText: "Context edit" }).first()).toBeVisible();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `/tmp/shots-pi16/context-edits-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });

  expect(await modelViewCount(app)).toContain(
    `${sent("B-context-edit").count} messages are sent to the model`,
  );
});

/**
 * Hostile content, as a person meets it: a session file (HTML that loads or impersonates,
 * right-to-left overrides in names and paths, tag-character smuggling, a 900-deep field, a huge
 * line) imported, every row expanded and every view opened; a hostile model reply and a file
 * named `report\u202Efdp.exe` written by the agent. The page must make no request to any other
 * origin (with the CSP, and with it bypassed: the sanitizer alone), show marks for every hidden
 * character, keep the model's text under "Raw", and survive the deep field. Also: the built
 * app's CSP blocks a remote image, medium, style and font.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { newSession, send, setUpProvider, waitIdle } from "./agent-helpers.ts";
import {
  FILE_NAME,
  FOREIGN,
  hostileMarkdown,
  LABEL,
  RLO,
  SECRET,
  SESSION_NAME,
  SMUGGLED,
  TOOL_PATH,
  writeDeepArgumentsSession,
  writeHostileSession,
} from "./lib/hostile-session.ts";
import { auditMarkup, LOADING_ATTRIBUTES } from "./lib/markup-audit.ts";
import { MOCK_ORIGIN, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage, IMPORT_TIMEOUT, topBarButton } from "./pages/app-page.ts";

const APP_ORIGIN = `http://127.0.0.1:${process.env.CUTPOINT_APP_PORT ?? 4173}`;
const SHOTS = process.env.CONTENT_SHOTS ?? "/tmp/shots-content";
const MARK = "⟨U+202E⟩";
/** How the page must show a text with right-to-left overrides. */
const marked = (text: string) => text.replaceAll(RLO, MARK);

/**
 * Counts every request to an origin other than the app's (and `allowed`), and aborts it so that
 * nothing leaves the machine. Returns the live list of URLs.
 */
async function watchForeign(page: Page, allowed: string[] = []): Promise<string[]> {
  const foreign: string[] = [];
  const isForeign = (url: string) => {
    if (url.startsWith("data:") || url.startsWith("blob:")) return false;
    const origin = new URL(url).origin;
    return origin !== APP_ORIGIN && !allowed.includes(origin);
  };
  page.on("request", (r) => {
    if (isForeign(r.url())) foreign.push(r.url());
  });
  await page.route(
    (url) => isForeign(url.href),
    (route) => route.abort(),
  );
  return foreign;
}

/** Texts and attributes on the page that hold a hidden character as is (should be none). */
async function rawHiddenOnPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hidden = /[\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;
    const emojiJoin = /\p{Extended_Pictographic}\uFE0F?\u200D\p{Extended_Pictographic}/u;
    const found: string[] = [];
    const check = (where: string, text: string) => {
      const plain = text.replace(/[\uFE00-\uFE0F]/g, "");
      if (hidden.test(plain) && !emojiJoin.test(plain))
        found.push(`${where}: ${JSON.stringify(text.slice(0, 80))}`);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent?.closest("textarea, script, style")) continue;
      check(`text in <${parent?.localName}>`, (n as Text).data);
    }
    for (const el of Array.from(document.querySelectorAll("[title], [aria-label]"))) {
      check(`title of <${el.localName}>`, el.getAttribute("title") ?? "");
      check(`aria-label of <${el.localName}>`, el.getAttribute("aria-label") ?? "");
    }
    return found;
  });
}

/** What the sanitized markdown on the page holds that it must not (e2e/lib/markup-audit.ts). */
async function unsafeMarkup(page: Page): Promise<string[]> {
  const shown = await page.locator(".md").evaluateAll((els) => els.map((e) => e.innerHTML));
  const bad: string[] = [];
  for (const html of shown)
    bad.push(...(await page.evaluate(auditMarkup, { html, loading: LOADING_ATTRIBUTES })));
  return bad;
}

function row(page: Page, text: string | RegExp): Locator {
  return page.getByTestId("timeline").locator("li").filter({ hasText: text });
}

/** Expands a timeline row (by its text) and returns it. */
async function expand(page: Page, text: string | RegExp): Promise<Locator> {
  const r = row(page, text).first();
  await r.scrollIntoViewIfNeeded();
  const head = r.locator("button.row-head");
  if ((await head.getAttribute("aria-expanded")) !== "true") await head.click();
  await expect(r.locator(".row-detail, [data-testid=error-boundary]").first()).toBeVisible();
  return r;
}

/** Records the page's CSP violations (the app's own code must cause none). */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
}

async function importHostile(page: Page): Promise<AppPage> {
  const app = new AppPage(page);
  const file = writeHostileSession();
  await app.goto();
  await app.importByPicker(file.path);
  await expect(app.sessionItems.first()).toContainText(MARK, { timeout: IMPORT_TIMEOUT });
  // The import opens the session it stored.
  await expect(app.timeline).toBeVisible({ timeout: IMPORT_TIMEOUT });
  return app;
}

/** Imports the hostile file, expands every row, opens every view; checks as it goes. */
async function walkHostileSession(page: Page, foreign: string[], shots: string | undefined): Promise<void> {
  const violations = await recordViolations(page);
  const app = await importHostile(page);
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(e.message));

  // The session's name: marked in the list and the top bar, isolated.
  await expect(app.title).toContainText(marked(SESSION_NAME));
  await expect(app.title.locator("bdi .invisible-mark")).toHaveText(MARK);

  // The user's hostile HTML: placeholders instead of loads, the destination of the link, no toast.
  const user = await expand(page, "Here is the");
  const md = user.locator(".md").first();
  await expect(md.locator(".md-removed").filter({ hasText: "image: cat picture" })).toContainText(
    `${FOREIGN}/img.png`,
  );
  await expect(md.locator(".md-removed").filter({ hasText: "video" })).toContainText(`${FOREIGN}/poster.png`);
  await expect(md.locator(".md-removed").filter({ hasText: "audio" })).toContainText(`${FOREIGN}/audio.mp3`);
  await expect(md.getByRole("link", { name: "at the bank" })).toHaveAttribute("target", "_blank");
  await expect(md.locator(".md-href").first()).toContainText("https://127.0.0.1:9/phish");
  await expect(md).toContainText("run this");
  await expect(md.getByRole("link", { name: "run this" })).toHaveCount(0);
  await expect(md).toContainText("(file:///etc/passwd, not a web link)");
  await expect(md).toContainText(SECRET); // the hidden span is shown
  await expect(md).toContainText(`⟨tags “${SMUGGLED}”⟩`);
  await expect(md).toContainText("zero⟨U+200B⟩width");
  await expect(page.locator(".toast")).toHaveCount(0); // the fake toast is plain text
  await expect(md).toContainText("Your API key expired");

  if (shots) await user.screenshot({ path: `${shots}-rendered.png` });

  // Raw: the exact text the model sees.
  await user.getByRole("button", { name: "Raw" }).click();
  const raw = user.getByTestId("raw-text");
  await expect(raw).toContainText(`<span hidden>${SECRET}</span>`);
  await expect(raw).toContainText(`<video poster="${FOREIGN}/poster.png"`);
  await expect(raw).toContainText(`⟨tags “${SMUGGLED}”⟩`);
  await user.getByRole("button", { name: "Raw" }).click();
  await expect(user.getByTestId("raw-text")).toHaveCount(0);

  // The tool call's path does not reverse its line; the label is marked.
  const call = row(page, "Tool call").first();
  await expect(call.locator(".row-excerpt")).toContainText(`read(${marked(TOOL_PATH)})`);
  await expect(row(page, "Here is the").first().locator(".row-label")).toContainText(marked(LABEL));
  const callRow = await expand(page, "Tool call");
  await expect(callRow.locator(".row-detail")).toContainText(`evil${MARK}gro/gpt${MARK}4`);

  // The 900-deep details: a bounded, truncated view; the rest goes on.
  const result = await expand(page, "read result");
  await expect(result).toContainText("file body⟨U+200B ×3⟩with zero-width spaces");
  await result.locator("summary", { hasText: "Details" }).click();
  await expect(result.getByTestId("json-truncated")).toBeVisible();
  await expect(result.locator(".entry-details pre")).toContainText("{… 1 key}");
  if (shots) await result.screenshot({ path: `${shots}-deep.png` });
  const custom = await expand(page, /Custom/);
  await expect(custom.getByTestId("json-truncated")).toBeVisible();

  // The huge line is shown (as plain text: too long for markdown) without breaking the row.
  const huge = await expand(page, "A huge line");
  await expect(huge.locator("pre.md-plain")).toContainText("lorem ipsum lorem");

  // The compaction's summary, its files.
  const compaction = await expand(page, /Compaction/);
  await expect(compaction.locator(".row-detail")).toContainText(marked(FILE_NAME));
  await expect(compaction.locator(".row-detail .md .md-removed").first()).toBeVisible();
  await compaction.getByRole("button", { name: "Raw" }).click();
  await expect(compaction.getByTestId("raw-text")).toContainText("<summary>");

  // Rows after the deep ones still work.
  const later = await expand(page, "After the compaction");
  await expect(later).toContainText(`${MARK}dlrow olleh`);
  if (shots) await page.screenshot({ path: `${shots}-timeline.png` });

  // Tree: names, labels and paths marked.
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  const tree = page.getByTestId("tree-panel");
  await expect(tree).toBeVisible();
  await expect(tree.locator(".tree-labels")).toContainText(marked(LABEL));
  await expect(tree.getByTestId("tree-list")).toContainText(`${MARK}dlrow olleh`);
  if (shots) await page.screenshot({ path: `${shots}-tree.png` });

  // The navigate dialog (going back to the tool call leaves the later entries).
  await tree.getByTestId("tree-list").locator(".tree-row", { hasText: "After the compaction" }).click();
  const nav = page.locator('dialog[data-dialog="navigate"]');
  await expect(nav).toBeVisible();
  await expect(nav.getByTestId("nav-target")).toContainText(MARK);
  await nav.getByRole("button", { name: "Cancel" }).click();
  await expect(nav).toBeHidden();
  await tree.getByRole("button", { name: "Close the tree" }).click();

  // Side panel: token timeline, what the model sees, history, preview.
  const panel = page.getByTestId("token-timeline-panel");
  if (!(await panel.isVisible())) await page.getByRole("button", { name: "Panel", exact: true }).click();
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId("token-timeline")).toContainText(MARK);
  await panel.getByLabel("What the model sees").check();
  await expect(panel.getByTestId("model-view")).toContainText(`${MARK}dlrow olleh`);
  await panel.getByRole("button", { name: "Raw text" }).click();
  await expect(panel.getByTestId("raw-text")).toContainText(`<span hidden>${SECRET}</span>`);
  await expect(panel.getByTestId("raw-text")).toContainText("<summary>");
  if (shots) await page.screenshot({ path: `${shots}-model-raw.png` });
  await panel.getByRole("button", { name: "Raw text" }).click();
  await panel.getByLabel("What the model sees").uncheck();
  await panel.getByRole("button", { name: /^History/ }).click();
  const history = page.getByTestId("compaction-history");
  await expect(history.locator(".md .md-removed").first()).toBeVisible();
  await history.getByRole("button", { name: "Raw" }).click();
  await expect(history.getByTestId("raw-text")).toContainText(`<span hidden>${SECRET}</span>`);
  await panel.getByRole("button", { name: "Compact…" }).click();
  const preview = page.getByTestId("compaction-preview");
  await expect(preview).toBeVisible();
  await preview.getByTestId("keep-recent").fill("0");
  // No summarizer is set up, so the field is empty; a pasted name with hidden characters cannot
  // show its marks in the field: the note under it does.
  await expect(preview.getByTestId("summarizer-model")).toHaveValue("");
  await preview.getByTestId("summarizer-model").fill("gpt\u202E4");
  await expect(preview.getByTestId("hidden-chars-note")).toContainText(`gpt${MARK}4`);
  await preview.locator("summary", { hasText: "Files read" }).click();
  await expect(preview.locator(".cp-file-lists")).toContainText(marked(FILE_NAME));
  await preview.getByTestId("offline").click();
  await preview.getByLabel("rendered").check();
  await expect(preview.locator(".cp-rendered")).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}-panel.png` });
  await preview.getByTestId("cancel").click();
  await panel.getByRole("button", { name: "Close the side panel" }).click();

  // Rename: the name in the field, with its marks shown under it.
  await (await topBarButton(page, "Rename")).click();
  const rename = page.locator('dialog[data-dialog="rename"]');
  await expect(rename.getByTestId("hidden-chars-note")).toContainText(marked(SESSION_NAME));
  await rename.getByRole("button", { name: "Cancel" }).click();

  // The delete dialog: the name cannot reverse the dialog's own sentence.
  await app.showSidebar();
  await app.sessionItems
    .first()
    .getByRole("button", { name: /^Delete/ })
    .click();
  const del = page.locator('dialog[data-dialog="delete"]');
  await expect(del).toContainText(`“${marked(SESSION_NAME)}” and all its entries will be removed`);
  if (shots) await page.screenshot({ path: `${shots}-delete.png` });
  await del.getByRole("button", { name: "Keep it" }).click();

  expect(await unsafeMarkup(page)).toEqual([]);
  expect(await rawHiddenOnPage(page)).toEqual([]);
  expect(problems).toEqual([]);
  // Parsing the content's HTML (in inert documents, to sanitize it) makes the browser report its
  // inline styles, <style> elements and event handlers as blocked: that is the policy at work.
  // No violation may name a URL: nothing tried to load from anywhere.
  expect((await violations()).filter((v) => !v.includes(" inline "))).toEqual([]);
  expect(foreign).toEqual([]);
}

test.describe("hostile session file", () => {
  test("loads nothing from elsewhere, marks hidden characters, survives the deep field", async ({ page }) => {
    test.setTimeout(120_000);
    const foreign = await watchForeign(page);
    await walkHostileSession(page, foreign, `${SHOTS}/hostile-light`);
    console.log(`hostile session (CSP on): ${foreign.length} requests to other origins`);
  });

  test("dark theme", async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: "dark" });
    const foreign = await watchForeign(page);
    await walkHostileSession(page, foreign, `${SHOTS}/hostile-dark`);
  });
});

test.describe("hostile session file, narrow window", () => {
  test.use({ viewport: { width: 800, height: 800 } });
  test("800 px, light", async ({ page }) => {
    test.setTimeout(120_000);
    const foreign = await watchForeign(page);
    await walkHostileSession(page, foreign, `${SHOTS}/hostile-800`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});

test.describe("hostile session file, CSP bypassed (the sanitizer alone)", () => {
  test.use({ bypassCSP: true });
  test("still loads nothing from elsewhere", async ({ page }) => {
    test.setTimeout(120_000);
    const foreign = await watchForeign(page);
    await walkHostileSession(page, foreign, undefined);
    console.log(`hostile session (CSP bypassed): ${foreign.length} requests to other origins`);
    // The watch itself works: an image put in the page by hand (not through the app) is counted.
    await page.evaluate((x) => {
      const img = document.createElement("img");
      img.src = `${x}/control.png`;
      document.body.append(img);
    }, FOREIGN);
    await expect.poll(() => foreign).toEqual([`${FOREIGN}/control.png`]);
  });
});

test("a hostile model reply and a file named with a right-to-left override", async ({ page }) => {
  test.setTimeout(90_000);
  const foreign = await watchForeign(page, [MOCK_ORIGIN]);
  const key = uniqueKey("hostile-reply");
  await page.goto("/");
  await setUpProvider(page, key);
  await newSession(page);
  await scriptReplies(key, [
    {
      text: "Writing the report.",
      toolCalls: [{ name: "write", arguments: { path: FILE_NAME, content: `# Report\n${RLO}secret` } }],
    },
    { text: `Done. ${hostileMarkdown()}` },
  ]);
  await send(page, "Write the report.");
  await waitIdle(page);
  const reply = page.getByTestId("run-message").last();
  await expect(reply.locator(".md .md-removed").filter({ hasText: "video" })).toContainText(
    `${FOREIGN}/poster.png`,
  );
  await expect(reply.locator(".md")).toContainText(SECRET);
  await reply.getByRole("button", { name: "Raw" }).click();
  await expect(reply.getByTestId("raw-text")).toContainText(`<span hidden>${SECRET}</span>`);

  const call = page.getByTestId("tool-call").first();
  await expect(call).toContainText(marked(FILE_NAME));

  await page.getByRole("button", { name: "Files", exact: true }).click();
  const files = page.getByTestId("workspace-panel");
  const file = files.getByRole("button", { name: marked(FILE_NAME) });
  await page.screenshot({ path: `${SHOTS}/hostile-files-list.png` });
  await expect(file).toBeVisible();
  await expect(file).not.toHaveText("reportexe.pdf");
  await file.click();
  await expect(page.getByTestId("file-content")).toContainText(`${MARK}secret`);
  await page.screenshot({ path: `${SHOTS}/hostile-files.png` });

  expect(await unsafeMarkup(page)).toEqual([]);
  expect(await rawHiddenOnPage(page)).toEqual([]);
  expect(foreign).toEqual([]);
  console.log(`hostile reply: ${foreign.length} requests to origins other than the app and the endpoint`);
});

test("the app's own screens cause no CSP violation", async ({ page }) => {
  const violations = await recordViolations(page);
  const app = new AppPage(page);
  await app.goto();
  await page.getByRole("button", { name: "Example session", exact: true }).click();
  await expect(app.timeline).toBeVisible({ timeout: IMPORT_TIMEOUT });
  for (const head of (await app.timeline.locator("button.row-head").all()).slice(0, 8)) await head.click();
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(page.getByTestId("tree-panel")).toBeVisible();
  await page.getByRole("button", { name: "Close the tree" }).click();
  await page.getByRole("button", { name: "Settings" }).click();
  await page.locator('dialog[data-dialog="settings"]').getByRole("button", { name: "Done" }).click();
  expect(await violations()).toEqual([]);
});

test("the built app's CSP blocks remote images, media, styles, fonts, frames and inline scripts", async ({
  page,
}) => {
  // The mock stands in for a remote server: the policy allows it only as an endpoint (connect-src).
  const attempts: string[] = [];
  const blocked: string[] = [];
  page.on("request", (r) => {
    if (r.url().startsWith(MOCK_ORIGIN) && !r.url().includes("/__mock/")) attempts.push(r.url());
  });
  page.on("requestfailed", (r) => {
    if (/BLOCKED_BY_CSP|csp/i.test(r.failure()?.errorText ?? "")) blocked.push(r.url());
  });
  const served: string[] = [];
  page.on("requestfinished", (r) => {
    if (r.url().startsWith(MOCK_ORIGIN) && !r.url().includes("/__mock/")) served.push(r.url());
  });
  await page.goto("/");
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  expect(csp).toContain("img-src 'self' data: blob:");
  expect(csp).toContain("script-src 'self';");
  const violations = await page.evaluate(async (remote) => {
    const seen: string[] = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
    const img = document.createElement("img");
    img.src = `${remote}/csp-image.png`;
    const video = document.createElement("video");
    video.src = `${remote}/csp-video.mp4`;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `${remote}/csp-style.css`;
    const frame = document.createElement("iframe");
    frame.src = `${remote}/csp-frame.html`;
    document.body.append(img, video, link, frame);
    const font = new FontFace("Remote", `url(${remote}/csp-font.woff2)`);
    await font.load().catch(() => undefined);
    const inline = document.createElement("script");
    inline.textContent = "window.__inlineRan = true";
    document.body.append(inline);
    await new Promise((r) => setTimeout(r, 500));
    return { seen, inlineRan: (window as { __inlineRan?: boolean }).__inlineRan === true };
  }, MOCK_ORIGIN);
  const seen = violations.seen.join("\n");
  for (const directive of [
    "img-src",
    "media-src",
    "style-src-elem",
    "frame-src",
    "font-src",
    "script-src-elem",
  ])
    expect(seen).toContain(directive);
  expect(violations.inlineRan).toBe(false);
  // Chromium reports the blocked loads as requests that failed with ERR_BLOCKED_BY_CSP; none was served.
  expect(served).toEqual([]);
  for (const url of attempts) expect(blocked).toContain(url);
  // The model endpoint (any http(s) origin the person configures) stays reachable.
  const health = await page.evaluate(
    async (base) => (await fetch(`${base}/__mock/health`)).status,
    MOCK_ORIGIN,
  );
  expect(health).toBe(200);
});

test("900-deep tool arguments: the row, Raw, what the model sees, the preview and the tree all render", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const foreign = await watchForeign(page);
  const app = new AppPage(page);
  await app.goto();
  await app.importByPicker(writeDeepArgumentsSession().path);
  await expect(app.item("Deep arguments ahead")).toBeVisible({ timeout: IMPORT_TIMEOUT });
  await app.item("Deep arguments ahead").locator(".session-open").click();
  const call = await expand(page, "Tool call");
  await expect(call.getByTestId("json-truncated")).toBeVisible();
  await call.getByRole("button", { name: "Raw" }).click();
  await expect(call.getByTestId("raw-text")).toContainText(
    '[tool call write (c1)] {"path":"x","deep":{"a":{"a":',
  );
  // At 900 levels the raw text is short enough to be shown whole (longer texts are cut for display).
  await expect(call.getByTestId("raw-text")).toContainText('{"a":1}}');
  const panel = page.getByTestId("token-timeline-panel");
  if (!(await panel.isVisible())) await page.getByRole("button", { name: "Panel", exact: true }).click();
  await panel.getByLabel("What the model sees").check();
  await panel.getByRole("button", { name: "Raw text" }).click();
  await expect(panel.getByTestId("raw-text")).toContainText('[tool call write (c1)] {"path":"x"');
  await panel.getByLabel("What the model sees").uncheck();
  await panel.getByRole("button", { name: "Compact…" }).click();
  const preview = page.getByTestId("compaction-preview");
  await preview.getByTestId("keep-recent").fill("0");
  await preview.getByTestId("offline").click();
  await expect(preview.getByTestId("preview-status")).toHaveText("Offline draft ready");
  await page.getByRole("button", { name: "Tree", exact: true }).click();
  await expect(page.getByTestId("tree-list")).toContainText("Still here");
  await page.screenshot({ path: `${SHOTS}/deep-arguments.png` });
  await expect(row(page, "Still here")).toBeVisible();
  await expect(page.getByTestId("error-boundary")).toHaveCount(0);
  expect(foreign).toEqual([]);
});

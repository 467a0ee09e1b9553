/**
 * Unit tests of the content sanitizer (src/ui/common/render-markdown.ts + sanitize-html.ts) in
 * the browser it runs in: the project's module bundled into a blank page. Every vector of issue 14
 * (loading attributes and elements, restyling, impersonation, hidden text, links, schemes, mXSS
 * classics), and a fast-check property: whatever HTML goes in, nothing that loads, runs or
 * restyles comes out, and putting the output into the page makes no request.
 */
import { expect, type Page, test } from "@playwright/test";
import fc from "fast-check";
import { bundleModule } from "./lib/bundle.ts";
import { auditMarkup, LOADING_ATTRIBUTES } from "./lib/markup-audit.ts";

let code = "";
test.beforeAll(async () => {
  code = await bundleModule("src/ui/common/render-markdown.ts", "CutpointContent");
});

async function load(page: Page): Promise<string[]> {
  const requests: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("data:") && !r.url().startsWith("about:")) requests.push(r.url());
  });
  await page.route("**/*", (route) => route.abort());
  await page.setContent("<!doctype html><html><body><div id=out></div></body></html>");
  await page.addScriptTag({ content: code });
  return requests;
}

type Api = { sanitizeHtml(html: string): string; renderMarkdown(md: string): string | undefined };

function sanitize(page: Page, html: string): Promise<string> {
  return page.evaluate(
    (h) => (window as unknown as { CutpointContent: Api }).CutpointContent.sanitizeHtml(h),
    html,
  );
}

function markdown(page: Page, md: string): Promise<string | undefined> {
  return page.evaluate(
    (m) => (window as unknown as { CutpointContent: Api }).CutpointContent.renderMarkdown(m),
    md,
  );
}

function audit(page: Page, html: string): Promise<string[]> {
  return page.evaluate(auditMarkup, { html, loading: LOADING_ATTRIBUTES });
}

/**
 * Sanitizes and renders each document in the page, audits both outputs and puts the sanitized one
 * into the page; returns the documents that let something through, with what.
 */
async function auditAll(page: Page, inputs: string[]): Promise<{ html: string; problems: string[] }[]> {
  // tsx (esbuild) wraps named inner functions in `__name(…)`: give the page a stand-in.
  await page.addScriptTag({
    content: `var __name = (f) => f; window.CutpointAudit = ${auditMarkup.toString()};`,
  });
  return page.evaluate(
    ({ inputs, loading }) => {
      type Audit = (a: { html: string; loading: readonly string[] }) => string[];
      const w = window as unknown as { CutpointContent: Api; CutpointAudit: Audit };
      const out = document.getElementById("out")!;
      const bad: { html: string; problems: string[] }[] = [];
      for (const html of inputs) {
        const clean = w.CutpointContent.sanitizeHtml(html);
        const md = w.CutpointContent.renderMarkdown(html);
        const problems = [
          ...w.CutpointAudit({ html: clean, loading }),
          ...(md === undefined ? [] : w.CutpointAudit({ html: md, loading }).map((p) => `markdown: ${p}`)),
        ];
        out.innerHTML = clean;
        if (problems.length > 0) bad.push({ html, problems });
      }
      return bad;
    },
    { inputs, loading: LOADING_ATTRIBUTES },
  );
}

const X = "http://127.0.0.1:9";

test.describe("sanitizer", () => {
  test("drops every attribute that loads, restyles, hides or impersonates", async ({ page }) => {
    await load(page);
    const cases = [
      `<table background="${X}/bg.png"><tr><td background="${X}/td.png">cell</td></tr></table>`,
      `<p style="position:fixed;inset:0" class="toast error" id="root" name="x" dir="rtl">styled</p>`,
      `<span hidden>hidden text</span>`,
      `<div onclick="alert(1)" onmouseover="alert(2)">events</div>`,
      `<a href="https://example.com" ping="${X}/ping" download target="_self" rel="opener">link</a>`,
      `<p lang="en" aria-label="x" data-x="y" tabindex="1" contenteditable>attrs</p>`,
    ];
    for (const html of cases) expect(await audit(page, await sanitize(page, html))).toEqual([]);
    const hidden = await sanitize(page, cases[2]!);
    expect(hidden).toContain("hidden text");
    expect(hidden).not.toContain("hidden=");
    expect(await sanitize(page, cases[1]!)).toBe("<p>styled</p>");
  });

  test("shows an image as a placeholder with its alt text and URL", async ({ page }) => {
    await load(page);
    const out = await sanitize(page, `<img src="${X}/cat.png" srcset="${X}/cat2.png 2x" alt="a cat">`);
    expect(out).toBe(
      `<span class="md-removed">[image: a cat — ${X}/cat.png, ${X}/cat2.png 2x (not loaded)]</span>`,
    );
    expect(await markdown(page, `![chart](${X}/chart.png)`)).toContain(
      `[image: chart — ${X}/chart.png (not loaded)]`,
    );
  });

  test("replaces every element that loads or embeds", async ({ page }) => {
    await load(page);
    const vectors: [string, string][] = [
      [`<video poster="${X}/p.png" src="${X}/v.mp4"><source src="${X}/s.mp4"></video>`, "video"],
      [`<audio src="${X}/a.mp3" autoplay></audio>`, "audio"],
      [`<picture><source srcset="${X}/p.webp"><img src="${X}/p.png"></picture>`, "picture"],
      [`<iframe src="${X}/f.html" srcdoc="<img src=${X}/x>"></iframe>`, "frame"],
      [`<object data="${X}/o.swf">fallback</object>`, "embedded object"],
      [`<embed src="${X}/e.swf">`, "embedded object"],
      [`<link rel="stylesheet" href="${X}/s.css">`, "link element"],
      [`<link rel="prefetch" href="${X}/pre">`, "link element"],
      [`<meta http-equiv="refresh" content="0;url=${X}/go">`, "meta element"],
      [`<base href="${X}/">`, "base element"],
      [`<form action="${X}/post"><input name="q"><button formaction="${X}/f">Go</button></form>`, "form"],
      [`<svg><image href="${X}/i.png"/><use xlink:href="${X}/u.svg#a"/></svg>`, "SVG image"],
      [`<math><mi xlink:href="${X}/m">x</mi></math>`, "math"],
      [`<style>@import url(${X}/i.css); p{background:url(${X}/b.png)}</style>`, "style sheet"],
      [`<script src="${X}/s.js"></script>`, "script"],
      [`<img src=x onerror="fetch('${X}/e')">`, "image"],
    ];
    for (const [html, what] of vectors) {
      const out = await sanitize(page, html);
      expect(await audit(page, out), html).toEqual([]);
      expect(out, html).toContain(`<span class="md-removed">[${what}`);
    }
    expect(await sanitize(page, vectors[0]![0])).toContain(`${X}/p.png`);
    expect(await sanitize(page, vectors[11]![0])).toContain(`${X}/u.svg#a`);
    expect(await sanitize(page, vectors[10]![0])).toContain("Go"); // a form's text stays readable
  });

  test("links open in a new tab and show where they go; other schemes are text", async ({ page }) => {
    await load(page);
    expect(await sanitize(page, `<a href="https://bank.example/login" title="Your bank">Your bank</a>`)).toBe(
      '<a href="https://bank.example/login" target="_blank" rel="noopener noreferrer" title="https://bank.example/login">Your bank</a><span class="md-href"> ↗ https://bank.example/login</span>',
    );
    expect(await sanitize(page, `<a href="https://a.example/">https://a.example/</a>`)).toBe(
      '<a href="https://a.example/" target="_blank" rel="noopener noreferrer" title="https://a.example/">https://a.example/</a>',
    );
    expect(await sanitize(page, `<a href="mailto:me@example.com">me@example.com</a>`)).toContain(
      'target="_blank"',
    );
    for (const href of [
      "javascript:alert(1)",
      " JaVaScRiPt:alert(1)",
      "data:text/html,<b>x</b>",
      "vbscript:x",
      "file:///etc/passwd",
      "#/session/x",
      "/local",
      "ftp://x.example/f",
      "tel:123",
    ]) {
      const out = await sanitize(page, `<a href="${href}">click</a>`);
      expect(out, href).not.toContain("<a");
      expect(out, href).toContain("click");
      expect(await audit(page, out), href).toEqual([]);
    }
    expect(await sanitize(page, `<a href="file:///etc/passwd">open</a>`)).toBe(
      'open<span class="md-href"> (file:///etc/passwd, not a web link)</span>',
    );
    expect(await markdown(page, "<https://x.example/a>")).toContain('target="_blank"');
  });

  test("marks hidden characters in text and titles, and cannot be made to forge its own marks", async ({
    page,
  }) => {
    await load(page);
    expect(await sanitize(page, "<p>report\u202Efdp.exe</p>")).toBe(
      '<p>report<span class="invisible-mark" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>fdp.exe</p>',
    );
    expect(await sanitize(page, '<abbr title="a\u200Bb">x</abbr>')).toBe('<abbr title="a⟨U+200B⟩b">x</abbr>');
    const forged = await sanitize(page, '<span title="cp-0000:md-removed">fake placeholder</span>');
    expect(forged).toBe('<span title="cp-0000:md-removed">fake placeholder</span>');
  });

  test("mutation-XSS classics come out inert", async ({ page }) => {
    await load(page);
    const vectors = [
      `<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
      `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">`,
      `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>`,
      `<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>`,
      `<a href="&#106;avascript:alert(1)">x</a>`,
      `<img src="${X}/a.png"<img src="${X}/b.png">`,
      `<textarea><img src=x onerror=alert(1)></textarea>`,
      `<template><img src=x onerror=alert(1)></template>`,
    ];
    for (const html of vectors) expect(await audit(page, await sanitize(page, html)), html).toEqual([]);
  });

  test("deep nesting renders (or falls back to text) without throwing", async ({ page }) => {
    await load(page);
    const quote = await markdown(page, `${"> ".repeat(5_000)}deep`);
    expect(quote === undefined || quote.includes("deep")).toBe(true);
    const html = await sanitize(page, `${"<div>".repeat(20_000)}bottom${"</div>".repeat(20_000)}`);
    expect(html).toContain("bottom");
  });

  test("property: no output contains a loading attribute, an event handler or a loading element", async ({
    page,
  }) => {
    const requests = await load(page);
    const tag = fc.constantFrom(
      "a",
      "p",
      "div",
      "span",
      "img",
      "video",
      "audio",
      "source",
      "table",
      "td",
      "svg",
      "image",
      "use",
      "math",
      "iframe",
      "object",
      "embed",
      "link",
      "meta",
      "base",
      "form",
      "input",
      "button",
      "style",
      "script",
      "picture",
      "noscript",
      "template",
      "b",
      "details",
      "marquee",
      "x-widget",
    );
    const attrName = fc.constantFrom(
      ...LOADING_ATTRIBUTES,
      "href",
      "title",
      "onerror",
      "onload",
      "onclick",
      "onmouseover",
      "target",
      "rel",
      "alt",
      "colspan",
    );
    const attrValue = fc.constantFrom(
      `${X}/x.png`,
      "javascript:alert(1)",
      "https://ok.example/",
      "toast",
      "x\u202Ey",
      "url(http://127.0.0.1:9/c)",
      '"><img src=x onerror=alert(1)>',
      "",
    );
    const attr = fc.tuple(attrName, attrValue).map(([n, v]) => ` ${n}="${v.replace(/"/g, "&quot;")}"`);
    const node: fc.Arbitrary<string> = fc.letrec<{ node: string }>((rec) => ({
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.constantFrom("text", "a\u202Eb", "<", "&amp;", "![i](http://127.0.0.1:9/m.png)"),
        fc
          .tuple(tag, fc.array(attr, { maxLength: 4 }), fc.array(rec("node"), { maxLength: 3 }))
          .map(([t, attrs, kids]) => `<${t}${attrs.join("")}>${kids.join("")}</${t}>`),
      ),
    })).node;
    // 300 random documents checked in one call into the page (one round trip each cost 40 s).
    const inputs = fc.sample(fc.array(node, { minLength: 1, maxLength: 4 }), 300).map((n) => n.join(""));
    expect(await auditAll(page, inputs)).toEqual([]);
    await page.waitForTimeout(200);
    expect(requests).toEqual([]);
  });
});

/**
 * What sanitized HTML must not hold, for the specs that check the sanitizer's output: elements
 * that load or embed, attributes that load, restyle, hide or name, event handlers, links that
 * are not http(s)/mailto or open in place. `auditMarkup` runs in the page (page.evaluate).
 */

/** Attributes that load, restyle, hide or name something. */
export const LOADING_ATTRIBUTES: readonly string[] = [
  "src",
  "srcset",
  "poster",
  "background",
  "style",
  "class",
  "id",
  "name",
  "hidden",
  "dir",
  "formaction",
  "action",
  "data",
  "xlink:href",
  "codebase",
  "ping",
  "download",
  "lowsrc",
  "dynsrc",
  "content",
  "http-equiv",
];

/** Problems of sanitized HTML, found by parsing it in an inert document (runs in the page). */
export function auditMarkup({ html, loading }: { html: string; loading: readonly string[] }): string[] {
  const LOADING = new Set(loading);
  const TAGS =
    /^(img|image|video|audio|source|track|picture|iframe|frame|frameset|object|embed|applet|link|meta|base|form|input|button|select|textarea|svg|math|style|script|noscript|template|canvas|portal)$/;
  const OURS = /^(md-removed|md-href|invisible-mark)$/;
  const doc = new DOMParser().parseFromString(`<body>${html}`, "text/html");
  const bad: string[] = [];
  for (const el of Array.from(doc.body.querySelectorAll("*"))) {
    if (TAGS.test(el.localName)) bad.push(`element <${el.localName}>`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) bad.push(`event handler ${name}`);
      else if (name === "class" && OURS.test(attr.value) && el.localName === "span") continue;
      else if (LOADING.has(name)) bad.push(`attribute ${name}="${attr.value.slice(0, 30)}"`);
      else if (!["href", "title", "colspan", "rowspan", "start", "target", "rel"].includes(name))
        bad.push(`unexpected attribute ${name}`);
    }
    if (el.localName === "a") {
      const href = el.getAttribute("href") ?? "";
      if (!/^(https?:\/\/|mailto:)/i.test(href)) bad.push(`link to ${href}`);
      if (el.getAttribute("target") !== "_blank") bad.push("link opens in place");
      if (el.getAttribute("rel") !== "noopener noreferrer") bad.push("link without noopener noreferrer");
    } else if (el.hasAttribute("target") || el.hasAttribute("rel") || el.hasAttribute("href")) {
      bad.push(`<${el.localName}> with a link attribute`);
    }
  }
  return bad;
}

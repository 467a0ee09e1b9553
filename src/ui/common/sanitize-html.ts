/**
 * HTML from model replies and imported files, made safe to show: an allow-list of tags and
 * attributes (DOMPurify), elements that load or embed replaced by a visible placeholder, links
 * opened in a new tab with their destination shown, hidden characters marked. Needs a DOM.
 */
import DOMPurify from "dompurify";
import { markInvisible, splitInvisible } from "./invisible.ts";

/** Tags kept (with their content). Any other tag is dropped and its content kept as text. */
export const ALLOWED_TAGS = [
  "a",
  "abbr",
  "b",
  "blockquote",
  "br",
  "caption",
  "cite",
  "code",
  "dd",
  "del",
  "div",
  "dl",
  "dt",
  "em",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "i",
  "ins",
  "kbd",
  "li",
  "mark",
  "ol",
  "p",
  "pre",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "u",
  "ul",
  "var",
];

/** Attributes kept: none of them loads, styles, hides or names anything. */
export const ALLOWED_ATTR = ["href", "title", "colspan", "rowspan", "start"];

/** Elements that load, embed or submit something: shown as a placeholder naming what and where. */
const EMBEDS: Record<string, string> = {
  img: "image",
  image: "image",
  picture: "picture",
  video: "video",
  audio: "audio",
  source: "media source",
  track: "media track",
  iframe: "frame",
  frame: "frame",
  frameset: "frames",
  object: "embedded object",
  embed: "embedded object",
  applet: "applet",
  portal: "portal",
  fencedframe: "frame",
  link: "link element",
  meta: "meta element",
  base: "base element",
  form: "form",
  input: "input",
  button: "button",
  select: "select",
  textarea: "text field",
  svg: "SVG image",
  math: "math",
  style: "style sheet",
  script: "script",
  noscript: "noscript",
  template: "template",
  canvas: "canvas",
};

/** Attributes whose value is a URL something would be loaded or sent to. */
const URL_ATTRS = [
  "src",
  "srcset",
  "poster",
  "data",
  "href",
  "xlink:href",
  "action",
  "formaction",
  "background",
  "codebase",
];

const SHOWN_URL_MAX = 200;
const LINK_SCHEMES = /^(https?:\/\/|mailto:)/i;

function shortUrl(url: string): string {
  const flat = url.trim();
  return markInvisible(flat.length > SHOWN_URL_MAX ? `${flat.slice(0, SHOWN_URL_MAX - 1)}…` : flat);
}

/** The placeholder text of an element that would load or embed something. */
function placeholderText(el: Element): string {
  const tag = el.localName.toLowerCase();
  const what = EMBEDS[tag] ?? tag;
  if (tag === "input" && el.getAttribute("type")?.toLowerCase() === "checkbox") {
    return el.hasAttribute("checked") ? "☑" : "☐";
  }
  const urls: string[] = [];
  const scan = [el, ...Array.from(el.querySelectorAll("source, track, img, image, use, a"))];
  for (const node of scan) {
    for (const name of URL_ATTRS) {
      const v = node.getAttribute(name);
      if (v && !urls.includes(v)) urls.push(v);
    }
  }
  const alt = el.getAttribute("alt") ?? el.getAttribute("title") ?? "";
  const parts = [alt.trim() ? `${what}: ${markInvisible(alt.trim().slice(0, 200))}` : what];
  if (urls.length > 0) parts.push(urls.slice(0, 4).map(shortUrl).join(", "));
  return `[${parts.join(" — ")} (not loaded)]`;
}

function randomNonce(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `cp-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

let purifier: ReturnType<typeof DOMPurify> | undefined;
function getPurifier(): ReturnType<typeof DOMPurify> {
  purifier ??= DOMPurify(window);
  return purifier;
}

/**
 * Replaces each loading/embedding element (outermost first) by a span tagged with `nonce`, in
 * an inert document (DOMParser: nothing in it loads or runs).
 */
function replaceEmbeds(doc: Document, nonce: string): void {
  const selector = Object.keys(EMBEDS).join(",");
  for (const el of Array.from(doc.body.querySelectorAll(selector))) {
    if (!doc.body.contains(el)) continue; // inside an element replaced before
    const span = doc.createElement("span");
    span.setAttribute("title", nonce);
    span.textContent = placeholderText(el);
    el.replaceWith(span);
  }
}

/** Shows a hidden character in a text node as marks (spans of class `invisible-mark`). */
function markTextNode(node: Text): void {
  const pieces = splitInvisible(node.data);
  if (pieces.length === 1 && typeof pieces[0] === "string") return;
  const doc = node.ownerDocument;
  const frag = doc.createDocumentFragment();
  for (const p of pieces) {
    if (typeof p === "string") frag.append(p);
    else {
      const span = doc.createElement("span");
      span.className = "invisible-mark";
      span.title = p.title;
      span.textContent = p.mark;
      frag.append(span);
    }
  }
  node.replaceWith(frag);
}

/** Links: http(s)/mailto open in a new tab with the destination shown; anything else is text. */
function fixLink(a: HTMLAnchorElement): void {
  const doc = a.ownerDocument;
  const href = (a.getAttribute("href") ?? "").trim();
  const text = (a.textContent ?? "").trim();
  if (!LINK_SCHEMES.test(href)) {
    const span = doc.createElement("span");
    span.append(...Array.from(a.childNodes));
    if (href !== "" && href !== text) {
      const dest = doc.createElement("span");
      dest.className = "md-href";
      dest.textContent = ` (${shortUrl(href)}, not a web link)`;
      span.append(dest);
    }
    a.replaceWith(span);
    return;
  }
  for (const attr of Array.from(a.attributes)) if (attr.name !== "href") a.removeAttribute(attr.name);
  a.setAttribute("target", "_blank");
  a.setAttribute("rel", "noopener noreferrer");
  a.setAttribute("title", markInvisible(href));
  const plain = href.replace(/^mailto:/i, "");
  if (text !== href && text !== plain) {
    const dest = doc.createElement("span");
    dest.className = "md-href";
    dest.textContent = ` ↗ ${shortUrl(href)}`;
    a.after(dest);
  }
}

/** Safe HTML for `dirty` (a string of untrusted HTML, e.g. what marked made of a reply). */
export function sanitizeHtml(dirty: string): string {
  const nonce = randomNonce();
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${dirty}`, "text/html");
  replaceEmbeds(doc, nonce);
  const frag = getPurifier().sanitize(doc.body, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    KEEP_CONTENT: true,
    RETURN_DOM_FRAGMENT: true,
  }) as DocumentFragment;
  const out = frag.ownerDocument.createElement("div");
  out.append(frag);
  for (const el of Array.from(out.querySelectorAll("span[title]"))) {
    if (el.getAttribute("title") !== nonce) continue;
    el.removeAttribute("title");
    el.className = "md-removed";
  }
  for (const a of Array.from(out.querySelectorAll("a"))) fixLink(a as HTMLAnchorElement);
  for (const el of Array.from(out.querySelectorAll("[title]"))) {
    el.setAttribute("title", markInvisible(el.getAttribute("title") ?? ""));
  }
  const walker = out.ownerDocument.createTreeWalker(out, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) texts.push(n as Text);
  for (const t of texts) markTextNode(t);
  return out.innerHTML;
}

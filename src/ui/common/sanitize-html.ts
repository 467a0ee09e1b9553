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

/** Attributes kept, and on which tags: none of them loads, styles, hides or names anything. */
const ATTR_TAGS: Record<string, ReadonlySet<string> | "any"> = {
  title: "any",
  href: new Set(["a"]),
  colspan: new Set(["td", "th"]),
  rowspan: new Set(["td", "th"]),
  start: new Set(["ol"]),
};
export const ALLOWED_ATTR = Object.keys(ATTR_TAGS);

/** Removes the allowed attributes that are on a tag they do not belong to (`<b href>`). */
function dropMisplacedAttributes(el: Element): void {
  for (const attr of Array.from(el.attributes)) {
    const tags = ATTR_TAGS[attr.name];
    if (tags !== "any" && !tags?.has(el.localName)) el.removeAttribute(attr.name);
  }
}

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

/** A fresh tag per call: content cannot forge the spans the post-pass styles. */
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

/** Elements whose content is shown after their placeholder (a form's labels, a button's text). */
const KEEP_CHILDREN = new Set(["form", "button", "object"]);

/** A span the post-pass turns into one of ours (`kind` is its class): tagged with the nonce. */
function taggedSpan(doc: Document, nonce: string, kind: string, text: string): HTMLSpanElement {
  const span = doc.createElement("span");
  span.setAttribute("title", `${nonce}:${kind}`);
  span.textContent = text;
  return span;
}

/**
 * In an inert document (DOMParser: nothing in it loads or runs), replaces each loading/embedding
 * element (outermost first) by a placeholder, and each link that is not http(s)/mailto by its
 * text and its destination as text.
 */
function replaceEmbedsAndLinks(doc: Document, nonce: string): void {
  const selector = Object.keys(EMBEDS).join(",");
  for (const el of Array.from(doc.body.querySelectorAll(selector))) {
    if (!doc.body.contains(el)) continue; // inside an element replaced before
    const placeholder = taggedSpan(doc, nonce, "md-removed", placeholderText(el));
    if (KEEP_CHILDREN.has(el.localName)) el.replaceWith(placeholder, ...Array.from(el.childNodes));
    else el.replaceWith(placeholder);
  }
  for (const a of Array.from(doc.body.querySelectorAll("a"))) {
    const href = (a.getAttribute("href") ?? "").trim();
    if (LINK_SCHEMES.test(href)) continue;
    const text = (a.textContent ?? "").trim();
    const parts: Node[] = Array.from(a.childNodes);
    if (href !== "" && href !== text)
      parts.push(taggedSpan(doc, nonce, "md-href", ` (${shortUrl(href)}, not a web link)`));
    a.replaceWith(...parts);
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

/** A web link (http(s)/mailto) opens in a new tab, its destination shown beside its text. */
function fixLink(a: HTMLAnchorElement): void {
  const href = (a.getAttribute("href") ?? "").trim();
  if (!LINK_SCHEMES.test(href)) {
    a.replaceWith(...Array.from(a.childNodes)); // the pre-pass turned these to text already
    return;
  }
  for (const attr of Array.from(a.attributes)) if (attr.name !== "href") a.removeAttribute(attr.name);
  a.setAttribute("target", "_blank");
  a.setAttribute("rel", "noopener noreferrer");
  a.setAttribute("title", markInvisible(href));
  const text = (a.textContent ?? "").trim();
  if (text !== href && text !== href.replace(/^mailto:/i, "")) {
    const dest = a.ownerDocument.createElement("span");
    dest.className = "md-href";
    dest.textContent = ` ↗ ${shortUrl(href)}`;
    a.after(dest);
  }
}

/** Safe HTML for `dirty` (a string of untrusted HTML, e.g. what marked made of a reply). */
export function sanitizeHtml(dirty: string): string {
  const nonce = randomNonce();
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${dirty}`, "text/html");
  replaceEmbedsAndLinks(doc, nonce);
  const frag = getPurifier().sanitize(doc.body.innerHTML, {
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
  for (const el of Array.from(out.querySelectorAll("*"))) dropMisplacedAttributes(el);
  for (const el of Array.from(out.querySelectorAll("span[title]"))) {
    const [tag, kind] = (el.getAttribute("title") ?? "").split(":");
    if (tag !== nonce || (kind !== "md-removed" && kind !== "md-href")) continue;
    el.removeAttribute("title");
    el.className = kind;
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

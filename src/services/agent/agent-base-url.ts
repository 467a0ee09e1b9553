/**
 * Checks a typed base URL before it is used (pure): a missing scheme, a trailing
 * /chat/completions (Cutpoint adds it), and a web page's address instead of an API's. Each
 * problem says what is wrong in plain words and, when there is one, the URL that fixes it.
 */

export interface BaseUrlProblem {
  kind: "no-scheme" | "endpoint-path" | "page-url" | "not-a-url";
  message: string;
  /** The URL that fixes it, when one is clear. */
  fix?: string;
}

/** Hosts of web pages (consoles, docs, playgrounds) people copy instead of the API's address. */
const PAGE_HOSTS: Record<string, string> = {
  "platform.openai.com": "https://api.openai.com/v1",
  "chat.openai.com": "https://api.openai.com/v1",
  "chatgpt.com": "https://api.openai.com/v1",
  "console.anthropic.com": "https://api.anthropic.com/v1",
  "console.groq.com": "https://api.groq.com/openai/v1",
  "aistudio.google.com": "https://generativelanguage.googleapis.com/v1beta/openai",
  "github.com": "",
  "huggingface.co": "",
  "console.mistral.ai": "https://api.mistral.ai/v1",
  "platform.deepseek.com": "https://api.deepseek.com/v1",
};

const PAGE_PATH =
  /\.(html?|php|aspx?)$|\/(docs?|documentation|playground|settings|api-keys|keys|account|login|chat)(\/|$)/i;

export function checkBaseUrl(raw: string): BaseUrlProblem[] {
  const url = raw.trim();
  if (url === "") return [];
  const out: BaseUrlProblem[] = [];
  let withScheme = url;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    const local = /^(localhost|127\.|0\.0\.0\.0|\[::1\]|192\.168\.|10\.)/i.test(url);
    withScheme = `${local ? "http" : "https"}://${url}`;
    out.push({
      kind: "no-scheme",
      message: `It needs to start with https:// (or http:// for a server on this machine or network).`,
      fix: withScheme,
    });
  } else if (!/^https?:\/\//i.test(url)) {
    return [{ kind: "not-a-url", message: "Only http:// and https:// addresses can be used." }];
  }
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return [{ kind: "not-a-url", message: "This is not a web address (e.g. https://api.openai.com/v1)." }];
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  const endpoint = /\/(chat\/completions|completions|responses|models)$/i.exec(path);
  if (endpoint) {
    const base = `${parsed.origin}${path.slice(0, endpoint.index)}`;
    out.push({
      kind: "endpoint-path",
      message: `Leave out /${endpoint[1]}: this is the base URL, and Cutpoint adds /${endpoint[1] === "models" ? "chat/completions and /models" : endpoint[1]} itself.`,
      fix: base,
    });
  }
  const host = parsed.hostname.toLowerCase();
  const pageHost = Object.hasOwn(PAGE_HOSTS, host);
  if (pageHost || (!endpoint && PAGE_PATH.test(path))) {
    const api = pageHost ? PAGE_HOSTS[host] : "";
    out.push({
      kind: "page-url",
      message: `This looks like a web page's address, not an API's. Use the API base URL from the provider's documentation (usually ending in /v1)${api ? `: ${api}` : ""}.`,
      ...(api ? { fix: api } : {}),
    });
  }
  return out;
}

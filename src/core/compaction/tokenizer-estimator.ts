/**
 * A second Estimator that counts real tokens with gpt-tokenizer (o200k_base for the gpt-4o /
 * gpt-4.1 / gpt-5 / o-series families, cl100k_base otherwise). The encoding is loaded with a
 * dynamic import() so that the app's first bundle does not include it (~1 MB gzip).
 * It counts the same parts as pi's estimator (§9); an image counts 4800 / 4 = 1200 tokens.
 */
import { cachedEstimator, type Estimator, IMAGE_CHARS, messageParts } from "./tokens.ts";

export type TokenizerEncoding = "o200k_base" | "cl100k_base";

/** The encoding used for a model id (provider prefixes like "openai/" are ignored). */
export function encodingForModel(model: string | undefined): TokenizerEncoding {
  const id = (model ?? "").toLowerCase().split("/").pop() ?? "";
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o\d)/.test(id)) return "o200k_base";
  if (/^gpt-oss/.test(id)) return "o200k_base";
  return "cl100k_base";
}

type CountFn = (text: string, options: { disallowedSpecial: Set<string> }) => number;

const loaded = new Map<TokenizerEncoding, Promise<CountFn>>();

function loadEncoding(encoding: TokenizerEncoding): Promise<CountFn> {
  let p = loaded.get(encoding);
  if (!p) {
    p =
      encoding === "o200k_base"
        ? import("gpt-tokenizer/encoding/o200k_base").then((m) => m.countTokens as CountFn)
        : import("gpt-tokenizer/encoding/cl100k_base").then((m) => m.countTokens as CountFn);
    loaded.set(encoding, p);
    p.catch(() => loaded.delete(encoding));
  }
  return p;
}

/** Special-token text in messages is counted as ordinary text, never rejected. */
const NO_SPECIAL = new Set<string>();

export type LoadEstimatorResult =
  | { ok: true; value: Estimator; encoding: TokenizerEncoding }
  | { ok: false; error: string };

/** Loads the tokenizer estimator for a model (the encoding module is fetched once). */
export async function loadTokenizerEstimator(model: string | undefined): Promise<LoadEstimatorResult> {
  const encoding = encodingForModel(model);
  try {
    const count = await loadEncoding(encoding);
    const imageTokens = Math.ceil(IMAGE_CHARS / 4);
    const value = cachedEstimator(`tokenizer:${encoding}`, (message) => {
      const parts = messageParts(message);
      let n = parts.images * imageTokens;
      for (const t of parts.texts) if (t.length > 0) n += count(t, { disallowedSpecial: NO_SPECIAL });
      return n;
    });
    return { ok: true, value, encoding };
  } catch (error) {
    return { ok: false, error: `Could not load the ${encoding} tokenizer: ${String(error)}` };
  }
}

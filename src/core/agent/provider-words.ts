/**
 * A provider error as one stored string: the plain sentence for the person, then the provider's
 * own text after a fixed marker (kept in the stored error so overflow rules can read it), and
 * the split back into the two for display.
 */

const MARK = "Provider's words: ";

/** The plain sentence followed by the provider's raw text (nothing added when it is empty). */
export function withProviderWords(plain: string, raw: string): string {
  const words = raw.trim();
  return words === "" ? plain : `${plain} ${MARK}${words}`;
}

/** The plain sentence and the provider's raw text ("" when the message carries none). */
export function splitProviderWords(text: string): { plain: string; raw: string } {
  const at = text.indexOf(MARK);
  if (at < 0) return { plain: text, raw: "" };
  return { plain: text.slice(0, at).trim(), raw: text.slice(at + MARK.length).trim() };
}

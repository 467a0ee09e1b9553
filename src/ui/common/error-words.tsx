/** An error on screen: its plain sentence, and the provider's own text one click away. */
import { splitProviderWords } from "../../core/agent/provider-words.ts";
import { SafeText } from "./safe-text.tsx";

export function ErrorWords({ text }: { text: string }) {
  const { plain, raw } = splitProviderWords(text);
  return (
    <>
      <SafeText text={plain} />
      {raw !== "" && (
        <details className="provider-words" data-testid="provider-words">
          <summary>Details: the provider's words</summary>
          <SafeText text={raw} />
        </details>
      )}
    </>
  );
}

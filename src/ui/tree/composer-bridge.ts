/**
 * Hands text to the composer ("Edit and resend", navigating to a user message). The composer
 * may take `composerDraft` from the tree store itself; when nothing took it by the next frame,
 * this fills the composer's textarea (the "composer" slot's "Message" box) the way typing would,
 * so React's onChange sees it, and focuses it.
 */
import { useEffect } from "react";
import { useTreeStore } from "../../store/tree-store.ts";

function fillComposer(text: string): boolean {
  const el =
    document.querySelector<HTMLTextAreaElement>('.composer-area textarea[aria-label="Message"]') ??
    document.querySelector<HTMLTextAreaElement>(".composer-area textarea");
  if (!el || el.disabled) return false;
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
  if (!setter) return false;
  setter.call(el, text);
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.focus();
  el.setSelectionRange(text.length, text.length);
  return true;
}

export function useComposerBridge(sessionId: string): void {
  useEffect(
    () =>
      useTreeStore.subscribe((state, prev) => {
        const draft = state.composerDraft;
        if (!draft || draft === prev.composerDraft || draft.sessionId !== sessionId) return;
        requestAnimationFrame(() => {
          if (useTreeStore.getState().composerDraft?.seq !== draft.seq) return; // the composer took it
          if (fillComposer(draft.text)) useTreeStore.getState().takeComposerDraft(draft.seq);
        });
      }),
    [sessionId],
  );
}

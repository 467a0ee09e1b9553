/** The top bar's Settings button (⚙; "⚙ Settings" in the ⋯ menu), the same on the welcome screen and in a session. */
import { useUiStore } from "../../store/ui-store.ts";

export function SettingsButton({ withLabel = false }: { withLabel?: boolean }) {
  const setSettingsOpen = useUiStore((s) => s.setSettingsOpen);
  return (
    <button
      type="button"
      className={withLabel ? "btn" : "btn icon"}
      aria-label="Settings"
      title="Settings"
      onClick={() => setSettingsOpen(true)}
    >
      {withLabel ? "⚙ Settings" : "⚙"}
    </button>
  );
}

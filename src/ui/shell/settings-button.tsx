/** The top bar's Settings button (⚙), the same on the welcome screen and in a session. */
import { useUiStore } from "../../store/ui-store.ts";

export function SettingsButton() {
  const setSettingsOpen = useUiStore((s) => s.setSettingsOpen);
  return (
    <button
      type="button"
      className="btn icon"
      aria-label="Settings"
      title="Settings"
      onClick={() => setSettingsOpen(true)}
    >
      ⚙
    </button>
  );
}

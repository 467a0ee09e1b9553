/** The Settings dialog: its content comes from the "settings" slot (provider, keys, compaction). */
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { SlotOutlet, useHasSlot } from "./slot-outlet.tsx";

export function SettingsDialog() {
  const open = useUiStore((s) => s.settingsOpen);
  const setOpen = useUiStore((s) => s.setSettingsOpen);
  const selected = useUiStore((s) => s.selectedSessionId);
  const has = useHasSlot("settings");
  return (
    <Dialog
      open={open}
      name="settings"
      title="Settings"
      onClose={() => setOpen(false)}
      actions={
        <button type="button" className="btn primary" onClick={() => setOpen(false)}>
          Done
        </button>
      }
    >
      {has ? <SlotOutlet slot="settings" sessionId={selected ?? ""} /> : <p>No settings yet.</p>}
    </Dialog>
  );
}

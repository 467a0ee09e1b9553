/** The top bar's ☰ button that opens the session list (a drawer on narrow windows), the same on every main view. */
import { useUiStore } from "../../store/ui-store.ts";

export function MenuToggle() {
  const setSidebarOpen = useUiStore((s) => s.setSidebarOpen);
  const sidebarOpen = useUiStore((s) => s.sidebarOpen);
  return (
    <button
      type="button"
      className="btn ghost icon menu-toggle"
      aria-label="Show the session list"
      aria-expanded={sidebarOpen}
      aria-controls="sidebar"
      onClick={() => setSidebarOpen(true)}
    >
      ☰
    </button>
  );
}

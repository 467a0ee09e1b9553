/**
 * Transient UI state (zustand). Persistent data lives in Dexie and is read with live queries;
 * nothing here is saved. Read with narrow selectors: `useUiStore((s) => s.sidebarOpen)`.
 */
import { create } from "zustand";
import type { TailPreview } from "../core/session/tail-preview.ts";

export type ToastKind = "info" | "error" | "success";

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  action?: ToastAction;
  /** ms; 0 keeps it until dismissed (errors that need action, progress until its result). */
  timeout: number;
  /** A toast with the same key replaces the earlier one (progress, then its result). */
  key?: string;
  /** Shown only while this session is open. */
  sessionId?: string;
}

/** Default lifetimes: information goes by itself after a few seconds; errors stay until dismissed. */
export const TOAST_TIMEOUTS: Record<ToastKind, number> = { info: 5000, success: 8000, error: 0 };

export interface ImportJob {
  id: number;
  fileName: string;
  phase: "read" | "parse" | "prepare" | "save" | "waiting";
  fraction: number;
  /** A big file's newest entries, shown while it is parsed (display only, never stored as such). */
  preview?: TailPreview;
  /**
   * The session that was open when the preview came (it is shown instead, with no session
   * selected: choosing one leaves the preview); opened again when the import stores nothing.
   */
  previewOver?: string | null;
}

export interface UiState {
  /** The open session (mirrored in the URL hash #/s/<id>). */
  selectedSessionId: string | undefined;
  /** Narrow windows: the session list is a drawer. */
  sidebarOpen: boolean;
  /** The right-side panel (token timeline, compaction preview). */
  rightPanelOpen: boolean;
  settingsOpen: boolean;
  /** Expanded timeline rows, by entry id. */
  expanded: ReadonlySet<string>;
  toasts: Toast[];
  imports: ImportJob[];
  /** Set when another tab upgraded the database: this tab must reload. */
  dbClosedReason: string | undefined;
  /** A request to show an entry in the token timeline (seq makes each request new). */
  reveal: { entryId: string; seq: number } | undefined;

  selectSession(id: string | undefined): void;
  setSidebarOpen(open: boolean): void;
  setRightPanelOpen(open: boolean): void;
  setSettingsOpen(open: boolean): void;
  toggleExpanded(entryId: string): void;
  pushToast(toast: Omit<Toast, "id" | "timeout"> & { timeout?: number }): number;
  dismissToast(id: number): void;
  /** Dismisses the toast with this key, if any. */
  dismissToastKey(key: string): void;
  /** Adds a job, or updates its fields (those not given are kept: a preview stays). */
  upsertImport(job: ImportJob): void;
  removeImport(id: number): void;
  setDbClosed(reason: string): void;
  revealEntry(entryId: string): void;
}

let toastSeq = 0;

export const useUiStore = create<UiState>()((set) => ({
  selectedSessionId: undefined,
  sidebarOpen: false,
  rightPanelOpen: false,
  settingsOpen: false,
  expanded: new Set<string>(),
  toasts: [],
  imports: [],
  dbClosedReason: undefined,
  reveal: undefined,

  selectSession: (id) => set({ selectedSessionId: id, expanded: new Set<string>(), sidebarOpen: false }),
  setSidebarOpen: (open) => set({ sidebarOpen: open }),
  setRightPanelOpen: (open) => set({ rightPanelOpen: open }),
  setSettingsOpen: (open) => set({ settingsOpen: open }),
  toggleExpanded: (entryId) =>
    set((s) => {
      const next = new Set(s.expanded);
      if (next.has(entryId)) next.delete(entryId);
      else next.add(entryId);
      return { expanded: next };
    }),
  pushToast: (toast) => {
    const id = ++toastSeq;
    const timeout = toast.timeout ?? TOAST_TIMEOUTS[toast.kind];
    set((s) => {
      // One toast per event: the same key, or the very same message and kind, replaces the earlier one.
      const others = s.toasts.filter((t) =>
        toast.key !== undefined
          ? t.key !== toast.key
          : !(t.kind === toast.kind && t.message === toast.message && t.sessionId === toast.sessionId),
      );
      return { toasts: [...others, { ...toast, id, timeout }] };
    });
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  dismissToastKey: (key) => set((s) => ({ toasts: s.toasts.filter((t) => t.key !== key) })),
  upsertImport: (job) =>
    set((s) => {
      const before = s.imports.find((j) => j.id === job.id);
      const others = s.imports.filter((j) => j.id !== job.id);
      return { imports: [...others, { ...before, ...job }].sort((a, b) => a.id - b.id) };
    }),
  removeImport: (id) => set((s) => ({ imports: s.imports.filter((j) => j.id !== id) })),
  setDbClosed: (reason) => set({ dbClosedReason: reason }),
  revealEntry: (entryId) => set((s) => ({ reveal: { entryId, seq: (s.reveal?.seq ?? 0) + 1 } })),
}));

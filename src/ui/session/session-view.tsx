/**
 * The open session: top bar (name, slots, actions), the timeline of the current path in the
 * centre, the right panel slot, the composer slot below. Everything under it can read the
 * loaded session with `useCurrentSession()`.
 */
import { useMemo, useRef, useState } from "react";
import { sessionTitle } from "../../core/session/session-name.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { RenameDialog } from "../common/session-dialogs.tsx";
import { useBarFit } from "../common/use-bar-fit.ts";
import { useBottomVar } from "../common/use-bottom-var.ts";
import { NARROW_TOP_BAR, useMediaQuery } from "../common/use-media-query.ts";
import { formatBytes, formatCountOf } from "../format.ts";
import { CurrentSessionProvider, useCurrentSession, useLoadProgress } from "../hooks/current-session.tsx";
import { useSessionActions } from "../hooks/use-session-actions.ts";
import { FollowBanner } from "../pi-folder/follow-banner.tsx";
import { MenuToggle } from "../shell/menu-toggle.tsx";
import { MoreMenu } from "../shell/more-menu.tsx";
import { SettingsButton } from "../shell/settings-button.tsx";
import { SlotOutlet, useHasSlot } from "../shell/slot-outlet.tsx";
import { Timeline } from "../timeline/timeline.tsx";
import { timelineModel } from "../timeline/timeline-model.ts";

function TopBar({ sessionId }: { sessionId: string }) {
  const { row } = useCurrentSession();
  const actions = useSessionActions();
  const rightOpen = useUiStore((s) => s.rightPanelOpen);
  const setRightOpen = useUiStore((s) => s.setRightPanelOpen);
  const hasRight = useHasSlot("rightPanel");
  // Overlays below the bar follow its real height.
  const barRef = useRef<HTMLElement>(null);
  useBottomVar(barRef, "topbar-bottom");
  const [renaming, setRenaming] = useState(false);
  const title = row ? sessionTitle(row) : "";
  // Narrow, or whenever the bar would not fit in one row (the offline chip at 800 px), only the
  // title, the slot (offline chip, meter, Compact…) and ⋯ stay in the bar: the rest moves into the menu.
  const slotRef = useRef<HTMLDivElement>(null);
  const actionsRef = useRef<HTMLDivElement>(null);
  const overflows = useBarFit(barRef, slotRef, actionsRef);
  const narrow = useMediaQuery(NARROW_TOP_BAR) || overflows;
  const panelButton = hasRight && (
    <button type="button" className="btn" aria-pressed={rightOpen} onClick={() => setRightOpen(!rightOpen)}>
      Panel
    </button>
  );
  return (
    <header className="topbar" ref={barRef}>
      <MenuToggle />
      <h1
        className="topbar-title"
        style={{ fontSize: "1rem", margin: 0 }}
        data-testid="session-title"
        title={markInvisible(title)}
      >
        <SafeText text={title} />
      </h1>
      <div className="topbar-slot" ref={slotRef}>
        <SlotOutlet slot="topBar" sessionId={sessionId} />
      </div>
      <div className="topbar-actions" ref={actionsRef}>
        {!narrow && <SlotOutlet slot="sessionActions" sessionId={sessionId} />}
        {!narrow && panelButton}
        <MoreMenu>
          {row && (
            <span className="more-menu-note" data-testid="topbar-sub">
              {formatCountOf(row.entryCount, "entry", "entries")} · {formatBytes(row.byteSize)}
            </span>
          )}
          {narrow && <SlotOutlet slot="sessionActions" sessionId={sessionId} />}
          <SlotOutlet slot="sessionMenu" sessionId={sessionId} />
          <button type="button" className="btn" onClick={() => setRenaming(true)} disabled={!row}>
            Rename
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => void actions.exportFile(sessionId)}
            disabled={!row}
          >
            Export
          </button>
          {narrow && panelButton}
          {narrow && <SettingsButton withLabel />}
        </MoreMenu>
        {!narrow && <SettingsButton />}
      </div>
      {renaming && row && (
        <RenameDialog
          initial={row.name ?? ""}
          shownAs={title}
          onSave={(name) => void actions.rename(sessionId, name)}
          onClose={() => setRenaming(false)}
        />
      )}
    </header>
  );
}

function LoadingNote() {
  const loading = useLoadProgress();
  return (
    <div className="center-note" role="status">
      Loading the session{loading !== undefined ? ` · ${Math.round(loading * 100)} %` : "…"}
    </div>
  );
}

function Conversation() {
  const { row, loaded, preview, outline } = useCurrentSession();
  // The whole session as soon as it is outlined (display only: the views that plan wait for `loaded`).
  const source = loaded ?? outline ?? preview;
  const model = useMemo(() => (source ? timelineModel(source.entries) : undefined), [source]);
  if (row === null) return <p className="center-note">This session no longer exists.</p>;
  if (!model) return <LoadingNote />;
  if (model.path.length === 0) {
    return <p className="center-note">This session has no entries yet.</p>;
  }
  return (
    <Timeline
      model={model}
      partial={!loaded && !outline}
      awaiting={loaded ? undefined : outline?.awaiting}
      sizeNote={row ? <SlotOutlet slot="timelineHead" sessionId={row.id} /> : undefined}
    />
  );
}

export function SessionView({ sessionId }: { sessionId: string }) {
  const rightOpen = useUiStore((s) => s.rightPanelOpen);
  const hasRight = useHasSlot("rightPanel");
  // Overlays on the right (the tree) end above the composer: it stays in view and usable.
  const composerRef = useRef<HTMLElement>(null);
  useBottomVar(composerRef, "composer-h", "height");
  return (
    <CurrentSessionProvider sessionId={sessionId}>
      <TopBar sessionId={sessionId} />
      <div className="workspace">
        <section className="conversation" aria-label="Conversation">
          <FollowBanner sessionId={sessionId} />
          <ErrorBoundary name="the timeline">
            <Conversation />
          </ErrorBoundary>
        </section>
        {hasRight && rightOpen && (
          <aside className="right-panel" aria-label="Side panel">
            <SlotOutlet slot="rightPanel" sessionId={sessionId} />
          </aside>
        )}
      </div>
      <footer className="composer-area" ref={composerRef}>
        <SlotOutlet slot="composer" sessionId={sessionId} />
      </footer>
    </CurrentSessionProvider>
  );
}

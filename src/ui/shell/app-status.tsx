/**
 * The installed app's status: the offline notice (a short chip in the top bar; above the composer,
 * that the model endpoint cannot be reached while the rest works) and the "Reload to update"
 * prompt for a new version, which waits for the person.
 */
import { useState } from "react";
import { usePwaStore } from "./pwa-state.ts";
import "./shell.css";

const OFFLINE_DETAIL =
  "No network: sessions open, change, import, export and compact with the Offline summary as usual; the model endpoint cannot be reached until you are back online.";

/** The top bar's chip (its tooltip and accessible name say what works and what does not). */
export function OfflineNotice() {
  const online = usePwaStore((s) => s.online);
  if (online) return null;
  return (
    <span
      className="offline-notice"
      role="status"
      data-testid="offline-notice"
      title={OFFLINE_DETAIL}
      aria-label={`Offline. ${OFFLINE_DETAIL}`}
    >
      <span aria-hidden="true" className="offline-dot" />
      <span>Offline</span>
    </span>
  );
}

/** Above the composer: the model cannot be reached, the session still works. */
export function OfflineComposerNotice() {
  const online = usePwaStore((s) => s.online);
  if (online) return null;
  return (
    <p className="offline-line" role="status" data-testid="offline-composer-notice">
      <span aria-hidden="true" className="offline-dot" />
      <span>
        <strong>Offline: the model endpoint cannot be reached.</strong> This session still opens, changes and
        compacts with the Offline summary; send when you are back online.
      </span>
    </p>
  );
}

export function UpdatePrompt() {
  const ready = usePwaStore((s) => s.updateReady && !s.updateDismissed);
  const apply = usePwaStore((s) => s.applyUpdate);
  const dismiss = usePwaStore((s) => s.dismissUpdate);
  const [reloading, setReloading] = useState(false);
  if (!ready) return null;
  return (
    <div className="update-prompt" role="status" data-testid="update-prompt">
      <p>
        <strong>A new version of Cutpoint is ready.</strong> Your sessions are stored in this browser and stay
        as they are.
      </p>
      <div className="update-actions">
        <button
          type="button"
          className="btn primary"
          disabled={reloading}
          onClick={() => {
            setReloading(true);
            void apply();
          }}
        >
          {reloading ? "Reloading…" : "Reload to update"}
        </button>
        <button type="button" className="btn" onClick={dismiss} disabled={reloading}>
          Later
        </button>
      </div>
    </div>
  );
}

/**
 * The sessions that are on the sync target but not on this device, as rows of the session list
 * (ui/sidebar/session-item.tsx):
 * their name, where they are, their size and entries when known, and Fetch (on demand: a phone
 * need not hold a 100 MB session it never opens).
 */
import type { RemoteSession } from "../../core/sync/manifest.ts";
import { markInvisible } from "../common/invisible.ts";
import { formatBytes, formatCountOf } from "../format.ts";
import { SessionItem } from "../sidebar/session-item.tsx";
import { useFetchRemote } from "./use-fetch-remote.ts";
import "./sync.css";

export function RemoteSessionItems({ remote, where }: { remote: readonly RemoteSession[]; where: string }) {
  const { fetching, fetchOne } = useFetchRemote();
  return remote.map((r) => {
    const title = r.title || "(untitled session)";
    const known = [
      r.entries > 0 ? formatCountOf(r.entries, "entry", "entries") : "",
      r.bytes > 0 ? formatBytes(r.bytes) : "",
    ].filter((s) => s !== "");
    return (
      <SessionItem
        key={r.id}
        id={r.id}
        title={title}
        className="session-remote"
        testId="remote-session"
        details={
          <>
            <span className="session-remote-where">On {where}, not on this device</span>
            {known.length > 0 && <span className="session-meta">{known.join(" · ")}</span>}
          </>
        }
        actions={
          <button
            type="button"
            className="btn"
            aria-label={`Fetch ${markInvisible(title)}`}
            disabled={fetching !== null}
            onClick={() => void fetchOne(r.id, title)}
          >
            {fetching === r.id ? "Fetching…" : "Fetch"}
          </button>
        }
      />
    );
  });
}

/**
 * Settings → Sync: the target (an S3-compatible bucket or a WebDAV folder), its credentials and how
 * they are kept (as API keys are), the end-to-end encryption passphrase, the CORS setup the target
 * needs, the status of each session and the sessions that are only on the target (Fetch).
 * Nothing is sent before "Save and sync".
 */
import { useEffect, useId, useState } from "react";
import type { KeyStorageMode } from "../../services/keys/key-vault.ts";
import type { SyncConfig, SyncTarget } from "../../services/sync/sync-config.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { formatCountOf } from "../format.ts";
import { useAppServices } from "../hooks/app-services.tsx";
import { apacheCorsLines, NEXTCLOUD_CORS_NOTE, s3CorsJson } from "./cors-text.ts";
import { sessionSyncLine } from "./sync-text.ts";
import { useFetchRemote } from "./use-fetch-remote.ts";
import { useSyncStatus } from "./use-sync.ts";
import "./sync.css";

type Kind = SyncTarget["kind"];

interface Draft {
  kind: Kind;
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  url: string;
  id: string;
  secret: string;
  passphrase: string;
  encrypt: boolean;
  mode: KeyStorageMode;
  lock: string;
}

const EMPTY: Draft = {
  kind: "s3",
  endpoint: "",
  region: "auto",
  bucket: "",
  prefix: "",
  url: "",
  id: "",
  secret: "",
  passphrase: "",
  encrypt: true,
  mode: "device",
  lock: "",
};

function draftOf(config: SyncConfig | undefined): Draft {
  if (!config) return EMPTY;
  const t = config.target;
  return t.kind === "s3"
    ? {
        ...EMPTY,
        kind: "s3",
        endpoint: t.endpoint,
        region: t.region,
        bucket: t.bucket,
        prefix: t.prefix,
        encrypt: config.encrypt,
      }
    : { ...EMPTY, kind: "webdav", url: t.url, encrypt: config.encrypt };
}

function Field(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  placeholder?: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="agent-field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? "text"}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && <p className="agent-hint">{props.hint}</p>}
    </div>
  );
}

const kb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function SyncSettings() {
  const status = useSyncStatus();
  const { sync } = useAppServices();
  const toast = useUiStore((s) => s.pushToast);
  const [config, setConfig] = useState<SyncConfig | undefined | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { fetching, fetchOne } = useFetchRemote();
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const origin = typeof location === "undefined" ? "https://cutpoint.example" : location.origin;

  useEffect(() => {
    void import("../../services/sync/sync-app.ts")
      .then((m) => m.readAppSyncConfig())
      .then((c) => {
        setConfig(c);
        setDraft(draftOf(c));
      });
  }, []);

  const save = async () => {
    setBusy(true);
    setFormError(null);
    const target: SyncTarget =
      draft.kind === "s3"
        ? {
            kind: "s3",
            endpoint: draft.endpoint,
            region: draft.region,
            bucket: draft.bucket,
            prefix: draft.prefix,
          }
        : { kind: "webdav", url: draft.url };
    const m = await import("../../services/sync/sync-app.ts");
    const saved = await m.saveAppSyncSetup({
      target,
      secrets: { id: draft.id, secret: draft.secret, passphrase: draft.passphrase },
      encrypt: draft.encrypt,
      mode: draft.mode,
      lockPassphrase: draft.lock,
    });
    if (!saved.ok) {
      setFormError(saved.error.message);
      setBusy(false);
      return;
    }
    setConfig(saved.value);
    set({ secret: "", passphrase: "", lock: "" });
    await (await sync.engine()).syncNow(true);
    setBusy(false);
  };

  const syncNow = async () => {
    setBusy(true);
    await (await sync.engine()).syncNow(true);
    setBusy(false);
  };

  const turnOff = async () => {
    const m = await import("../../services/sync/sync-app.ts");
    await m.clearAppSync();
    setConfig(undefined);
    setDraft(EMPTY);
    await (await sync.engine()).syncNow();
    toast({
      kind: "info",
      message: "Sync is off. Every session stays on this device; nothing more is sent.",
    });
  };

  const sessions = Object.entries(status.sessions);
  const canEncrypt = draft.passphrase !== "";
  return (
    <section className="sync-settings" aria-labelledby="sync-heading" data-testid="sync-settings">
      <h3 id="sync-heading">Sync</h3>
      {config === null ? null : !config ? (
        <p className="agent-hint">
          Sync your sessions through storage you own: an S3-compatible bucket (AWS S3, Cloudflare R2,
          Backblaze B2, MinIO, Garage) or a WebDAV folder (Nextcloud, ownCloud, a NAS, Apache). Nothing is
          sent anywhere until you set a target here.
        </p>
      ) : (
        <p className="agent-hint">Syncing with the {status.target ?? "target you set"}.</p>
      )}
      <form
        className="agent-settings"
        aria-label="Sync target"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset className="sync-kind">
          <legend>Target</legend>
          <label className="agent-check">
            <input
              type="radio"
              name="sync-kind"
              checked={draft.kind === "s3"}
              onChange={() => set({ kind: "s3" })}
            />
            S3-compatible bucket
          </label>
          <label className="agent-check">
            <input
              type="radio"
              name="sync-kind"
              checked={draft.kind === "webdav"}
              onChange={() => set({ kind: "webdav" })}
            />
            WebDAV folder
          </label>
        </fieldset>
        {draft.kind === "s3" ? (
          <>
            <Field
              label="Endpoint"
              value={draft.endpoint}
              onChange={(v) => set({ endpoint: v })}
              placeholder="https://<account>.r2.cloudflarestorage.com"
            />
            <Field
              label="Region"
              value={draft.region}
              onChange={(v) => set({ region: v })}
              hint="“auto” for R2; the bucket's region for AWS."
            />
            <Field label="Bucket" value={draft.bucket} onChange={(v) => set({ bucket: v })} />
            <Field
              label="Prefix (optional)"
              value={draft.prefix}
              onChange={(v) => set({ prefix: v })}
              placeholder="cutpoint/"
            />
            <Field
              label="Access key id"
              value={draft.id}
              onChange={(v) => set({ id: v })}
              placeholder={config ? "saved: enter again to change" : ""}
            />
            <Field
              label="Secret access key"
              type="password"
              value={draft.secret}
              onChange={(v) => set({ secret: v })}
              placeholder={config ? "saved: enter again to change" : ""}
            />
          </>
        ) : (
          <>
            <Field
              label="Folder URL"
              value={draft.url}
              onChange={(v) => set({ url: v })}
              placeholder="https://cloud.example.com/remote.php/dav/files/me/cutpoint/"
              hint="The folder must exist."
            />
            <Field
              label="User"
              value={draft.id}
              onChange={(v) => set({ id: v })}
              placeholder={config ? "saved: enter again to change" : ""}
            />
            <Field
              label="Password or app token"
              type="password"
              value={draft.secret}
              onChange={(v) => set({ secret: v })}
              placeholder={config ? "saved: enter again to change" : ""}
            />
          </>
        )}
        <Field
          label="Encryption passphrase"
          type="password"
          value={draft.passphrase}
          onChange={(v) => set({ passphrase: v })}
          hint="The same on every device. Sessions are encrypted in this browser (AES-GCM): whoever holds the bucket or server sees that sessions exist, nothing more. Lost, it cannot be recovered."
        />
        <label className="agent-check">
          <input
            type="checkbox"
            checked={canEncrypt && draft.encrypt}
            disabled={!canEncrypt}
            onChange={(e) => set({ encrypt: e.target.checked })}
          />
          Encrypt sessions end to end{canEncrypt ? "" : " (set a passphrase first)"}
        </label>
        <div className="agent-field">
          <label htmlFor="sync-mode">Keep the credentials and passphrase</label>
          <select
            id="sync-mode"
            value={draft.mode}
            onChange={(e) => set({ mode: e.target.value as KeyStorageMode })}
          >
            <option value="device">on this device</option>
            <option value="tab">in this tab only</option>
            <option value="passphrase">locked with a passphrase</option>
          </select>
        </div>
        {draft.mode === "passphrase" && (
          <Field
            label="Passphrase that locks them"
            type="password"
            value={draft.lock}
            onChange={(v) => set({ lock: v })}
            hint="Asked once per visit, when sync first needs them."
          />
        )}
        {formError && (
          <p className="agent-flag error" role="alert">
            {formError}
          </p>
        )}
        <div className="agent-row sync-actions">
          <button type="submit" className="btn primary" disabled={busy}>
            Save and sync
          </button>
          {config && (
            <>
              <button type="button" className="btn" disabled={busy} onClick={() => void syncNow()}>
                Sync now
              </button>
              <button type="button" className="btn" onClick={() => void turnOff()}>
                Turn sync off
              </button>
            </>
          )}
        </div>
      </form>
      <div data-testid="sync-status" className="sync-status" data-synced-at={status.lastSyncedAt ?? 0}>
        {status.phase === "error" ? (
          <p className="agent-flag error" role="alert" data-testid="sync-error">
            {status.message}
          </p>
        ) : (
          <p className="agent-hint" role="status">
            {status.phase === "off"
              ? "Sync is off."
              : status.phase === "running"
                ? status.progress
                  ? `Uploading: ${status.progress.done} of ${formatCountOf(status.progress.total, "entry", "entries")}…`
                  : "Syncing…"
                : `Synced${status.lastSyncedAt ? ` at ${new Date(status.lastSyncedAt).toLocaleTimeString()}` : ""}.`}
          </p>
        )}
        {sessions.length > 0 && (
          <ul className="sync-sessions" aria-label="Sync status of each session">
            {sessions.map(([id, s]) => (
              <li key={id} data-session-id={id} data-state={s.state}>
                <span className="sync-title">{s.title}</span>{" "}
                <span className="agent-faint">{sessionSyncLine(s)}</span>
              </li>
            ))}
          </ul>
        )}
        {status.remote.length > 0 && (
          <>
            <h4>Only on the target</h4>
            <ul className="sync-sessions" aria-label="Sessions only on the target">
              {status.remote.map((r) => (
                <li key={r.id} data-session-id={r.id}>
                  <span className="sync-title">{r.title}</span>{" "}
                  <span className="agent-faint">{kb(r.bytes)}</span>{" "}
                  <button
                    type="button"
                    className="link"
                    disabled={fetching !== null}
                    onClick={() => void fetchOne(r.id, r.title)}
                  >
                    {fetching === r.id ? "Fetching…" : "Fetch"}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <details className="sync-cors">
        <summary>CORS setup</summary>
        <p className="agent-hint">
          The browser sends requests to the target only when the target allows this page ({origin}). Without
          it, sync says it “could not reach” the target.
        </p>
        <p>
          S3-compatible bucket: the bucket's CORS configuration (JSON; AWS console, R2 dashboard, B2, MinIO):
        </p>
        <pre data-testid="s3-cors">{s3CorsJson(origin)}</pre>
        <p>Apache with mod_dav:</p>
        <pre data-testid="dav-cors">{apacheCorsLines(origin)}</pre>
        <p>{NEXTCLOUD_CORS_NOTE}</p>
      </details>
    </section>
  );
}

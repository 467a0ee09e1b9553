/**
 * The API key of the provider settings: saved for the origin of the base URL and sent only there.
 * Shows the key bound to that origin (masked, revealable, removable, where it is kept), or the
 * field to save one with the choice of where to keep it (this device, this tab only, encrypted
 * with a passphrase), and for keys saved for other origins an explicit "Use my saved key for …".
 */
import { useCallback, useEffect, useId, useState } from "react";
import type { KeyStatus, KeyStorageMode, VaultResult } from "../../services/keys/key-vault.ts";
import { appKeys } from "../../services/keys/keys-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import "./key-field.css";

const MODE_LABELS: Record<KeyStorageMode, { label: string; hint: string }> = {
  device: { label: "On this device", hint: "in this browser profile (IndexedDB), until you remove it" },
  tab: { label: "This tab only", hint: "gone when this tab closes; a new tab does not have it" },
  passphrase: {
    label: "Encrypted with a passphrase",
    hint: "stored encrypted (AES-GCM); you enter the passphrase once per page load, when a request needs it",
  },
};

export const keptWhere = (mode: KeyStorageMode): string =>
  mode === "device" ? "on this device" : mode === "tab" ? "in this tab only" : "encrypted with a passphrase";

export function ApiKeyField(props: {
  baseUrl: string;
  needsKey: boolean;
  keyUrl: string | undefined;
  onChanged: () => void;
}) {
  const { baseUrl, needsKey, keyUrl, onChanged } = props;
  const id = useId();
  const toast = useUiStore((s) => s.pushToast);
  const [status, setStatus] = useState<KeyStatus | null>(null);
  const [masked, setMasked] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [draft, setDraft] = useState("");
  const [mode, setMode] = useState<KeyStorageMode>("device");
  const [passphrase, setPassphrase] = useState("");
  const [repeat, setRepeat] = useState("");
  const passphraseMissing = mode === "passphrase" && (passphrase === "" || passphrase !== repeat);
  const [busy, setBusy] = useState(false);
  const [moving, setMoving] = useState(false);

  const reload = useCallback(async () => {
    const [s, m] = await Promise.all([appKeys.status(baseUrl), appKeys.masked(baseUrl)]);
    setStatus(s);
    setMasked(m);
  }, [baseUrl]);
  useEffect(() => {
    setRevealed(null);
    setDraft("");
    setMoving(false);
    void reload();
  }, [reload]);
  useEffect(() => {
    void appKeys.preferredMode().then(setMode);
  }, []);

  const after = async (r: VaultResult, changed = true) => {
    if (!r.ok) toast({ kind: "error", message: r.message });
    await reload();
    if (r.ok && changed) onChanged();
  };
  const save = async () => {
    if (draft.trim() === "" || passphraseMissing) return;
    setBusy(true);
    const r = await appKeys.save({ baseUrl, secret: draft, mode, passphrase });
    setBusy(false);
    if (r.ok) {
      setDraft("");
      setPassphrase("");
      setRepeat("");
    }
    await after(r);
  };
  const move = async () => {
    if (passphraseMissing) return;
    setBusy(true);
    const r = await appKeys.move({ baseUrl, mode, passphrase });
    setBusy(false);
    if (r.ok) {
      setMoving(false);
      setPassphrase("");
      setRepeat("");
    }
    await after(r, false);
  };
  const remove = async () => {
    setRevealed(null);
    // No new listing: without its key the endpoint would only be asked in vain.
    await after(await appKeys.remove(baseUrl), false);
  };
  const reveal = async () => {
    if (revealed !== null) return setRevealed(null);
    const r = await appKeys.reveal(baseUrl);
    if (r.ok) setRevealed(r.secret);
    else toast({ kind: "error", message: r.message });
    await reload();
  };

  if (!status) return null;
  const origin = status.origin;
  const key = status.key;
  const label = `API key${needsKey ? "" : " (optional for local servers)"}`;
  if (!origin)
    return (
      <div className="agent-field">
        <span className="agent-field-label">{label}</span>
        <p className="agent-hint">Enter the base URL first: a key is saved for one address.</p>
      </div>
    );

  return (
    <div className="agent-field">
      <label htmlFor={id}>{label}</label>
      {key ? (
        <>
          <div className="agent-row">
            <output id={id} className="agent-key" data-testid="api-key-display" aria-label="Stored API key">
              {revealed ?? masked ?? "•••••••• (locked)"}
            </output>
            <button
              type="button"
              className="btn small"
              aria-pressed={revealed !== null}
              onClick={() => void reveal()}
            >
              {revealed !== null ? "Hide" : key.locked ? "Unlock and reveal" : "Reveal"}
            </button>
            <button type="button" className="btn small danger" onClick={() => void remove()}>
              Remove key
            </button>
          </div>
          <p className="agent-hint" data-testid="api-key-where">
            Saved for <strong>{origin}</strong>, kept {keptWhere(key.mode)}
            {key.mode === "passphrase" ? (key.locked ? " (locked)" : " (unlocked in this page)") : ""}. It is
            sent only there, in the Authorization header, and never appears in exported files.
          </p>
          {moving ? (
            <>
              <KeyModeChoice
                mode={mode}
                onMode={setMode}
                passphrase={passphrase}
                onPassphrase={setPassphrase}
                repeat={repeat}
                onRepeat={setRepeat}
              />
              <div className="agent-row">
                <button
                  type="button"
                  className="btn small"
                  disabled={busy || passphraseMissing || (mode === key.mode && mode !== "passphrase")}
                  onClick={() => void move()}
                >
                  {busy ? "Saving…" : "Keep it this way"}
                </button>
                <button type="button" className="link" onClick={() => setMoving(false)}>
                  cancel
                </button>
              </div>
            </>
          ) : (
            <button type="button" className="link key-move" onClick={() => setMoving(true)}>
              Keep it another way…
            </button>
          )}
        </>
      ) : (
        <>
          <div className="agent-row">
            <input
              id={id}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={draft}
              placeholder="paste the key"
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void save();
                }
              }}
            />
          </div>
          {/* Where it is kept is chosen first: Save keeps it that way. */}
          <KeyModeChoice
            mode={mode}
            onMode={setMode}
            passphrase={passphrase}
            onPassphrase={setPassphrase}
            repeat={repeat}
            onRepeat={setRepeat}
          />
          <div className="agent-row">
            <button
              type="button"
              className="btn small"
              disabled={busy || draft.trim() === "" || passphraseMissing}
              onClick={() => void save()}
            >
              {busy ? "Saving…" : "Save key"}
            </button>
          </div>
          <p className="agent-hint">
            The key is saved for <strong>{origin}</strong> and sent only there, in the Authorization header;
            it never appears in exported files.
            {keyUrl && (
              <>
                {" "}
                <a href={keyUrl} target="_blank" rel="noreferrer noopener">
                  Get a key
                </a>
              </>
            )}
          </p>
          {status.others.map((other) => {
            const from = other.origins.length > 0 ? other.origins.join(", ") : other.savedFor;
            return (
              <div key={other.id} className="key-other" data-testid="saved-key-offer">
                <button
                  type="button"
                  className="btn small"
                  onClick={() => void appKeys.bindTo(other.id, baseUrl).then((r) => after(r))}
                >
                  Use my saved key for {origin}
                </button>
                <span className="agent-hint">
                  the key saved for {from}, kept {keptWhere(other.mode)}
                </span>
                <button
                  type="button"
                  className="link"
                  aria-label={`Forget the key saved for ${from}`}
                  onClick={() => void appKeys.forget(other.id).then((r) => after(r, false))}
                >
                  forget it
                </button>
              </div>
            );
          })}
        </>
      )}
    </div>
  );
}

function KeyModeChoice(props: {
  mode: KeyStorageMode;
  onMode: (mode: KeyStorageMode) => void;
  passphrase: string;
  onPassphrase: (p: string) => void;
  repeat: string;
  onRepeat: (p: string) => void;
}) {
  const name = useId();
  const passId = useId();
  const repeatId = useId();
  return (
    <fieldset className="key-modes">
      <legend>Keep the key</legend>
      {(Object.keys(MODE_LABELS) as KeyStorageMode[]).map((m) => (
        <label key={m} className="key-mode">
          <input
            type="radio"
            name={name}
            value={m}
            checked={props.mode === m}
            onChange={() => props.onMode(m)}
          />
          <span>
            {MODE_LABELS[m].label}
            <span className="agent-faint"> — {MODE_LABELS[m].hint}</span>
          </span>
        </label>
      ))}
      {props.mode === "passphrase" && (
        <div className="key-passphrase">
          <label htmlFor={passId}>Passphrase</label>
          <input
            id={passId}
            type="password"
            autoComplete="new-password"
            value={props.passphrase}
            onChange={(e) => props.onPassphrase(e.target.value)}
          />
          <label htmlFor={repeatId}>Repeat it</label>
          <input
            id={repeatId}
            type="password"
            autoComplete="new-password"
            value={props.repeat}
            onChange={(e) => props.onRepeat(e.target.value)}
          />
          <span className="agent-faint">
            {props.repeat !== "" && props.repeat !== props.passphrase
              ? "The two passphrases differ."
              : "Not stored anywhere: if you forget it, remove the key and save it again."}
          </span>
        </div>
      )}
    </fieldset>
  );
}

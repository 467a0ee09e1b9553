/**
 * The passphrase prompt: shown when a request needs a key kept encrypted with a passphrase and not
 * unlocked in this page yet. A wrong passphrase says so and asks again (the key stays stored);
 * Cancel sends nothing. Mounted once by the app; installs itself as the key vault's prompt.
 */
import { useEffect, useId, useRef, useState } from "react";
import { type PassphraseRequest, setPassphrasePrompt } from "../../services/keys/key-vault.ts";
import { Dialog } from "../common/dialog.tsx";
import "./key-field.css";

interface Pending {
  request: PassphraseRequest;
  finish: (unlocked: boolean) => void;
}

export function KeyUnlockDialog() {
  const [pending, setPending] = useState<Pending | null>(null);
  const [value, setValue] = useState("");
  const [wrong, setWrong] = useState(false);
  const [checking, setChecking] = useState(false);
  const id = useId();
  const pendingRef = useRef<Pending | null>(null);

  useEffect(() => {
    setPassphrasePrompt(
      (request) =>
        new Promise<boolean>((resolve) => {
          pendingRef.current?.finish(false);
          const next: Pending = {
            request,
            finish: (unlocked) => {
              if (pendingRef.current === next) pendingRef.current = null;
              setPending((p) => (p === next ? null : p));
              setValue("");
              setWrong(false);
              resolve(unlocked);
            },
          };
          pendingRef.current = next;
          setPending(next);
        }),
    );
    return () => {
      setPassphrasePrompt(undefined);
      pendingRef.current?.finish(false);
    };
  }, []);

  if (!pending) return null;
  const { request, finish } = pending;
  const submit = async () => {
    if (value === "" || checking) return;
    setChecking(true);
    const ok = await request.check(value);
    setChecking(false);
    if (ok) finish(true);
    else setWrong(true);
  };
  return (
    <Dialog
      open
      name="key-unlock"
      title="Unlock the API key"
      onClose={() => finish(false)}
      actions={
        <>
          <button type="button" className="btn" onClick={() => finish(false)}>
            Cancel
          </button>
          <button
            type="submit"
            form="key-unlock-form"
            className="btn primary"
            disabled={value === "" || checking}
          >
            {checking ? "Checking…" : "Unlock"}
          </button>
        </>
      }
    >
      <form
        id="key-unlock-form"
        className="key-unlock-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p>
          The key saved for <strong>{request.savedFor}</strong> is encrypted. Enter its passphrase to use it
          in this page (it stays unlocked until the page is closed or reloaded).
        </p>
        <div className="agent-field">
          <label htmlFor={id}>Passphrase</label>
          <input
            id={id}
            type="password"
            autoComplete="current-password"
            data-autofocus
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setWrong(false);
            }}
          />
        </div>
        {wrong && (
          <p className="agent-flag error" role="alert">
            Wrong passphrase: the key was not unlocked (it is still saved). Try again, or cancel.
          </p>
        )}
      </form>
    </Dialog>
  );
}

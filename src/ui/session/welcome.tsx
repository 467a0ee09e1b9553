/** Empty states: no sessions at all (welcome), or none open. */
import { storedSessions } from "../../services/session/sessions-instance.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { useProviderSettings } from "../agent/use-agent.ts";
import { useLive } from "../data/use-live.ts";
import { useSessionActions } from "../hooks/use-session-actions.ts";
import { ImportButton } from "../import/import-button.tsx";

export function Welcome() {
  const count = useLive(storedSessions.watchCount, []);
  const actions = useSessionActions();
  const none = count === 0;
  const settings = useProviderSettings();
  const openSettings = useUiStore((s) => s.setSettingsOpen);
  const noModel = settings !== undefined && settings.model === "";
  // Nothing until both are read: the setup box and texts they decide would otherwise push the buttons
  // down under a person's (or a driver's) pointer a moment after they appear.
  if (count === undefined || settings === undefined) return <div className="welcome" aria-busy="true" />;
  return (
    <div className="welcome">
      <h1>{none ? "Welcome to Cutpoint" : "Open a session"}</h1>
      <p>
        {none
          ? "Run long agent sessions with your own API key, and see context compaction before it happens. Sessions stay in this browser, in the pi coding agent's JSONL format."
          : "Choose a session from the list, or start another one."}
      </p>
      {noModel && (
        <div className="welcome-setup" data-testid="welcome-setup">
          <p>
            To talk to an agent, set up a model first: a provider (or any OpenAI-compatible server, local ones
            too), its key, and a model. Importing and reading sessions needs none.
          </p>
          <button type="button" className="btn primary" onClick={() => openSettings(true)}>
            Set up a model
          </button>
        </div>
      )}
      <div className="welcome-actions">
        <button
          type="button"
          className={noModel ? "btn" : "btn primary"}
          onClick={() => void actions.example("compaction")}
        >
          See a compaction planned (example)
        </button>
        <ImportButton className="btn" label="Import .jsonl…" />
        <button type="button" className="btn" onClick={() => void actions.example()}>
          Open the example session
        </button>
        <button type="button" className="btn" onClick={() => void actions.newSession()}>
          New empty session
        </button>
      </div>
      <p>Or drop .jsonl files anywhere on this window.</p>
      {none && (
        <p className="welcome-how" data-testid="welcome-how">
          With your own sessions: import a pi session file (they are in ~/.pi/agent/sessions/), or start one
          here with your API key (Settings ⚙); Compact… then shows the plan of a compaction before anything is
          written.
        </p>
      )}
    </div>
  );
}

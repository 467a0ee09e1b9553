/** Mounts the agent UI into the shell (imported once by src/main.tsx). */
import { registerSlot } from "../shell/slots.ts";
import { AgentComposer } from "./composer.tsx";
import { ProviderSettingsForm } from "./provider-settings.tsx";
import "./agent.css";

registerSlot("composer", AgentComposer, "agent-composer");
registerSlot("settings", ProviderSettingsForm, "agent-provider-settings");

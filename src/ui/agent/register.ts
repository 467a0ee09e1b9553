/** Mounts the agent UI into the shell (imported once by src/main.tsx); the provider settings load on demand. */
import { registerLazySlot, registerSlot } from "../shell/slots.ts";
import { AgentComposer } from "./composer.tsx";
import "./agent.css";

registerSlot("composer", AgentComposer, "agent-composer");
registerLazySlot(
  "settings",
  () => import("./provider-settings.tsx"),
  (m) => m.ProviderSettingsForm,
  "agent-provider-settings",
);

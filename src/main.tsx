import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { db } from "./db/instance.ts";
import { watchDatabase } from "./services/db-lifecycle.ts";
import { useUiStore } from "./store/ui-store.ts";
import { App } from "./ui/app";
import { watchConnectivity } from "./ui/shell/pwa-state.ts";
import "./ui/styles.css";
import "./ui/shell/register.ts";
import "./ui/compaction/register.ts";
import "./ui/agent/register.ts";
import "./ui/tree/register.ts";

watchDatabase(db, (reason) => useUiStore.getState().setDbClosed(reason));
watchConnectivity();

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The service worker (offline use, updates) once the page has loaded: not in the initial bundle.
if (import.meta.env.PROD) {
  const register = () => void import("./ui/shell/pwa-register.ts").then((m) => m.registerServiceWorker());
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

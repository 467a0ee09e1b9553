/**
 * Entry point of the app: mounts it, watches the database, connectivity and the run locks of
 * other tabs; after load, registers the service worker and prefetches the lazy panels and the
 * markdown renderer.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { watchRunLiveness } from "./services/agent/run-liveness.ts";
import { createTabServices } from "./services/app/app-services-instance.ts";
import { storedSessions } from "./services/session/sessions-instance.ts";
import { useUiStore } from "./store/ui-store.ts";
import { App } from "./ui/app";
import { AppServicesProvider } from "./ui/hooks/app-services.tsx";
import { sessionInHash } from "./ui/hooks/use-hash-route.ts";
import { prefetchLazyComponents } from "./ui/shell/lazy-component.ts";
import { watchConnectivity } from "./ui/shell/pwa-state.ts";
import { loadMarkdown } from "./ui/timeline/lazy-markdown.tsx";
import "./ui/styles.css";
import "./ui/shell/register.ts";
// The agent's before the compaction's: Settings opens on the model provider.
import "./ui/agent/register.ts";
import { connectCompactionHooks } from "./ui/compaction/register.ts";
import "./ui/tree/register.ts";
import "./ui/pins/register.ts";
import { startSyncAfterLoad } from "./ui/sync/register.ts";

// The tab's services, made once: the views get them from AppServicesProvider, the hooks here.
const services = createTabServices();
connectCompactionHooks(services);
startSyncAfterLoad(services);

storedSessions.watchDatabase((reason) => useUiStore.getState().setDbClosed(reason));
watchRunLiveness();
watchConnectivity();

// The session the URL names is open from the first render: a reload shows no empty view first, and
// the session's read starts one render sooner.
const initial = sessionInHash();
if (initial) useUiStore.getState().selectSession(initial);
// Opened at "/" (a bookmark, the installed app): the last session opened, if it is still here.
else
  void storedSessions.toReopen(localStorage).then((id) => {
    if (id && useUiStore.getState().selectedSessionId === undefined) useUiStore.getState().selectSession(id);
  });

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <AppServicesProvider services={services}>
      <App />
    </AppServicesProvider>
  </StrictMode>,
);

// Once the page has loaded: the service worker (offline use, updates), and when the page is idle,
// the code of the panels and of the markdown renderer (loaded on demand, fetched ahead here).
const afterLoad = () => {
  if (import.meta.env.PROD) void import("./ui/shell/pwa-register.ts").then((m) => m.registerServiceWorker());
  const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 2000));
  idle(() => void prefetchLazyComponents().then(() => loadMarkdown().catch(() => undefined)), {
    timeout: 1500,
  });
};
if (document.readyState === "complete") afterLoad();
else window.addEventListener("load", afterLoad, { once: true });

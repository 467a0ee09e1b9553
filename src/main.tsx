import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { db } from "./db/instance.ts";
import { watchDatabase } from "./services/db-lifecycle.ts";
import { useUiStore } from "./store/ui-store.ts";
import { App } from "./ui/app";
import "./ui/styles.css";
import "./ui/compaction/register.ts";
import "./ui/agent/register.ts";
import "./ui/tree/register.ts";

watchDatabase(db, (reason) => useUiStore.getState().setDbClosed(reason));

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

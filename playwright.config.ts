/**
 * Playwright config: Debian's Chromium, the built app (`vite preview`) and the mock server,
 * with ports and the build folder overridable so that several runs can share one machine.
 */
import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/** Playwright drives Debian's Chromium (never a downloaded browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/**
 * Ports and the served build can be overridden so that several runs can share one machine:
 * CUTPOINT_APP_PORT, CUTPOINT_MOCK_PORT, CUTPOINT_DIST (the folder `vite build --outDir` wrote).
 */
const APP_PORT = Number(process.env.CUTPOINT_APP_PORT ?? 4173);
export const MOCK_PORT = Number(process.env.CUTPOINT_MOCK_PORT ?? 4010);
const DIST = process.env.CUTPOINT_DIST ?? "dist";

const webServer = [
  {
    command: `npx vite preview --port ${APP_PORT} --strictPort --outDir ${DIST}`,
    url: `http://127.0.0.1:${APP_PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
];
if (existsSync("e2e/mock/server.ts")) {
  webServer.push({
    command: `npx tsx e2e/mock/server.ts --port ${MOCK_PORT}`,
    url: `http://127.0.0.1:${MOCK_PORT}/__mock/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  });
}

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  workers: 2,
  // One more try everywhere (not only where CI is set): a test that passes only then is reported as
  // "flaky" in the summary, and its trace is kept (trace: "on-first-retry").
  retries: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    // A trace only when a failed test is tried again: recording every passing test cost about a
    // third of the suite's CPU (docs/decisions.md).
    trace: "on-first-retry",
    acceptDownloads: true,
    // The service worker precaches the whole build (4.5 MB) in every new context; only the specs
    // about it (offline.spec.ts) and the engine runs let it in.
    serviceWorkers: "block",
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer,
});

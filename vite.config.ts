/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { devCspPlugin } from "./vite.csp.ts";

/**
 * The PWA: a web app manifest and a Workbox service worker that precaches the whole built app
 * (so it opens and works with no network). registerType "prompt": a new version waits until the
 * person chooses "Reload to update" (src/ui/shell/pwa.ts); it never reloads a page by itself.
 * The worker is registered from the app's own bundle (injectRegister false: no inline script,
 * so a `script-src 'self'` CSP holds); it is not used by the dev server.
 */
const pwa = VitePWA({
  registerType: "prompt",
  injectRegister: false,
  includeAssets: ["favicon.svg", "icons/apple-touch-icon.png"],
  manifest: {
    name: "Cutpoint",
    short_name: "Cutpoint",
    description:
      "Run and inspect long LLM agent sessions (pi JSONL), with visual, steerable context compaction.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#f7f7f5",
    theme_color: "#1f6feb",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      { src: "/icons/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
    ],
  },
  workbox: {
    // The app, its lazy chunks, the import worker, the tokenizers and the example session.
    globPatterns: ["**/*.{js,css,html,svg,png,webmanifest,jsonl}"],
    // Documentation images are not part of the app.
    globIgnores: ["screenshot.png", "screenshots/**"],
    // The o200k tokenizer chunk is ~2 MB.
    maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    navigateFallback: "/index.html",
    cleanupOutdatedCaches: true,
    // A new worker waits (skipWaiting only when the person chooses to reload).
    skipWaiting: false,
    clientsClaim: false,
    sourcemap: false,
  },
});

/** Head tags of the installed app (kept out of index.html, which other changes touch). */
const appHead: Plugin = {
  name: "cutpoint-app-head",
  transformIndexHtml: () => [
    { tag: "meta", attrs: { name: "theme-color", content: "#1f6feb" }, injectTo: "head" },
    {
      tag: "link",
      attrs: { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
      injectTo: "head",
    },
  ],
};

export default defineConfig({
  plugins: [react(), devCspPlugin(), pwa, appHead],
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 1500 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/**/*.unit.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    // pi 1.6 installed once before the tests that ask it (src/conformance/pi16-setup.ts).
    globalSetup: ["src/conformance/pi16-setup.ts"],
  },
});

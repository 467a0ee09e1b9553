/// <reference types="vitest/config" />
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { devCspPlugin } from "./vite.csp.ts";

export default defineConfig({
  plugins: [react(), devCspPlugin()],
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173, strictPort: true },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 1500 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/**/*.unit.test.ts"],
    environment: "node",
    testTimeout: 30_000,
  },
});

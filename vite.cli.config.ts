// Builds the CLI ahead of time as plain JavaScript for Node (dist-cli/main.js), so `npm run cli` compiles nothing at run time.
import { defineConfig } from "vite";

export default defineConfig({
  publicDir: false,
  build: {
    ssr: "src/cli/main.ts",
    outDir: "dist-cli",
    target: "node22",
    minify: false,
    sourcemap: true,
    emptyOutDir: true,
    rollupOptions: { output: { entryFileNames: "main.js", format: "es" } },
  },
});

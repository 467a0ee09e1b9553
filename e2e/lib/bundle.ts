/**
 * Bundles one module of src/ as an IIFE with Vite, in memory, so that a spec can load the
 * project's real code into a page of the app's origin (e.g. to run it against OPFS or the mock).
 */
import { resolve } from "node:path";
import { build } from "vite";

/** `entry` is relative to the repository root; the bundle exposes its exports as `globalName`. */
export async function bundleModule(entry: string, globalName: string): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: "silent",
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve(import.meta.dirname, "../..", entry), formats: ["iife"], name: globalName },
    },
  });
  const first = Array.isArray(out) ? out[0] : out;
  const chunk = (first as { output: { type: string; code?: string }[] }).output.find(
    (o) => o.type === "chunk",
  );
  return chunk?.code ?? "";
}

/**
 * Runs pi 1.6's own command line (its `pi` bin, on its Node 22) in print mode, in a scratch world:
 * an agent folder whose models.json points a "mock" provider at a mock OpenAI-compatible server,
 * whose settings.json sets compaction, and, when asked, with Cutpoint's pins extension
 * (public/pi/cutpoint-pins.js) installed as a person would: copied into its extensions folder.
 * Nothing of ~/.pi is read or written. Async, so a mock server in the same process can answer.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Pi16, pi16Paths } from "./pi16.ts";

export const PINS_EXTENSION = resolve(import.meta.dirname, "../../public/pi/cutpoint-pins.js");
export const MOCK_PROVIDER = "mock";
export const MOCK_MODEL = "mock-model";

export interface PiWorld {
  /** The scratch folder holding the rest. */
  dir: string;
  /** PI_CODING_AGENT_DIR. */
  agentDir: string;
  /** The working directory pi runs in (point the session's `cwd` here). */
  cwd: string;
  pi: Pi16;
}

export interface PiWorldOptions {
  /** Base URL of the mock server, e.g. http://127.0.0.1:4417/v1. */
  baseUrl: string;
  /** The API key pi sends (the mock keeps each key's script and requests apart). */
  apiKey: string;
  contextWindow: number;
  maxTokens: number;
  compaction: { reserveTokens: number; keepRecentTokens: number };
  /** Install Cutpoint's pins extension. */
  extension: boolean;
}

export function piWorld(options: PiWorldOptions, pi: Pi16 = pi16Paths()): PiWorld {
  const dir = mkdtempSync(join(tmpdir(), "cutpoint-pi-world-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "work");
  mkdirSync(join(agentDir, "extensions"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const models = {
    providers: {
      [MOCK_PROVIDER]: {
        baseUrl: options.baseUrl,
        api: "openai-completions",
        apiKey: options.apiKey,
        models: [{ id: MOCK_MODEL, contextWindow: options.contextWindow, maxTokens: options.maxTokens }],
      },
    },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ compaction: options.compaction }, null, 2));
  if (options.extension) copyFileSync(PINS_EXTENSION, join(agentDir, "extensions", "cutpoint-pins.js"));
  return { dir, agentDir, cwd, pi };
}

export interface PiRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** `pi --session <file> --model mock/mock-model -p <prompt>` in the world's cwd. */
export function piPrint(world: PiWorld, sessionFile: string, prompt: string): Promise<PiRun> {
  const bin = join(world.pi.packageDir, "dist", "bundle", "cli.js");
  const args = [bin, "--session", sessionFile, "--model", `${MOCK_PROVIDER}/${MOCK_MODEL}`, "-p", prompt];
  return new Promise((done, failed) => {
    const child = spawn(world.pi.node, args, {
      cwd: world.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PI_CODING_AGENT_DIR: world.agentDir,
        PI_OFFLINE: "1",
        PI_SKIP_VERSION_CHECK: "1",
        PI_TELEMETRY: "0",
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString("utf8");
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    child.on("error", failed);
    child.on("close", (code) => done({ status: code ?? 1, stdout, stderr }));
  });
}

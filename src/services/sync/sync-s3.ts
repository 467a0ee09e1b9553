/**
 * An S3-compatible bucket as a sync target (AWS S3, Cloudflare R2, Backblaze B2, MinIO, Garage):
 * path-style URLs `<endpoint>/<bucket>/<prefix><name>`, every request signed with SigV4 by
 * aws4fetch (never by hand) and sent only to the endpoint's origin.
 */
import { AwsClient } from "aws4fetch";
import {
  done,
  failed,
  originOf,
  type SyncResult,
  type SyncStore,
  statusFailure,
  unreachable,
} from "./sync-transport.ts";

export interface S3Target {
  endpoint: string;
  region: string;
  bucket: string;
  /** Normalized (layout.ts normalizePrefix): "" or ending in "/". */
  prefix: string;
}

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** The code of an S3 XML error body (<Code>…</Code>), "" when there is none. */
export function s3ErrorCode(xml: string): string {
  return /<Code>([^<]{1,80})<\/Code>/.exec(xml)?.[1] ?? "";
}

const decodeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

/** The keys and the continuation token of a ListObjectsV2 answer. */
export function parseListV2(xml: string): { keys: string[]; next: string | undefined } {
  const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => decodeXml(m[1]!));
  const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
  const token = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
  return { keys, next: truncated && token ? decodeXml(token) : undefined };
}

const encodeKey = (key: string) => key.split("/").map(encodeURIComponent).join("/");

export function createS3Store(
  target: S3Target,
  credentials: S3Credentials,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): SyncResult<SyncStore> {
  const base = target.endpoint.trim().replace(/\/+$/, "");
  const origin = originOf(base);
  if (!origin) return failed("other", `The endpoint “${target.endpoint}” is not an http(s) URL.`);
  if (target.bucket.trim() === "") return failed("missing", "Enter the bucket's name.");
  const client = new AwsClient({
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    service: "s3",
    region: target.region.trim() || "us-east-1",
  });
  const bucketUrl = `${base}/${encodeURIComponent(target.bucket.trim())}`;

  async function send(url: string, init: RequestInit): Promise<SyncResult<Response>> {
    // The credentials go to the endpoint's origin only.
    if (originOf(url) !== origin) return failed("other", "Refused: a request to another origin.");
    let res: Response;
    try {
      const signed = await client.sign(url, init);
      res = await fetchImpl(signed);
    } catch {
      return unreachable(origin!);
    }
    return done(res);
  }
  async function failure(res: Response) {
    const code = s3ErrorCode(await res.text().catch(() => ""));
    return statusFailure(res.status, "bucket", code);
  }

  const store: SyncStore = {
    origin,
    async put(name, body, contentType) {
      const r = await send(`${bucketUrl}/${encodeKey(target.prefix + name)}`, {
        method: "PUT",
        body,
        headers: { "content-type": contentType },
      });
      if (!r.ok) return r;
      return r.value.ok ? done(undefined) : failure(r.value);
    },
    async get(name) {
      const r = await send(`${bucketUrl}/${encodeKey(target.prefix + name)}`, {
        method: "GET",
        cache: "no-store",
      });
      if (!r.ok) return r;
      if (r.value.status === 404) {
        const code = s3ErrorCode(await r.value.text().catch(() => ""));
        return code === "NoSuchBucket" ? statusFailure(404, "bucket", code) : done(null);
      }
      return r.value.ok ? done(new Uint8Array(await r.value.arrayBuffer())) : failure(r.value);
    },
    async list(dir) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const q = new URLSearchParams({ "list-type": "2", prefix: target.prefix + dir });
        if (token) q.set("continuation-token", token);
        const r = await send(`${bucketUrl}?${q}`, { method: "GET", cache: "no-store" });
        if (!r.ok) return r;
        if (!r.value.ok) return failure(r.value);
        const page = parseListV2(await r.value.text());
        keys.push(...page.keys.map((k) => k.slice(target.prefix.length)));
        token = page.next;
      } while (token);
      return done(keys);
    },
    async ensureFolders() {
      return done(undefined);
    },
  };
  return done(store);
}

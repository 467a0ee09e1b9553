/**
 * Mock OpenAI-compatible server for tests. Plain node:http on 127.0.0.1.
 *
 *   npx tsx e2e/mock/server.ts --port 4010
 *
 * Wire format: Chat Completions (streaming SSE and non-streaming), GET /v1/models and /models.
 * CORS like real endpoints: the preflight echoes Access-Control-Request-Headers, and every response
 * carries Access-Control-Allow-Origin.
 *
 * Scripting is namespaced by the bearer API key (each test uses its own key):
 *   POST /__mock/script   {key, replies: ReplySpec[]}  queue replies, one per chat request
 *   POST /__mock/models   {key, models?, error?}       model list of that key (or a failure)
 *   GET  /__mock/requests?key=K                         recorded requests of that key
 *   POST /__mock/release  {key}                         let the oldest held reply of that key go on
 *   POST /__mock/reset    {key}                         forget the key's script, models and requests
 *   GET  /__mock/health                                 200
 * With an empty queue a chat request gets a short text reply echoing the last user message.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { errorResponse } from "./errors.ts";
import { buildChunks, buildCompletion, defaultReply } from "./replies.ts";
import { DEFAULT_MODELS, type ModelsSpec, type RecordedRequest, type ReplySpec } from "./types.ts";

interface KeyState {
  replies: ReplySpec[];
  requests: RecordedRequest[];
  models?: ModelsSpec;
  /** Replies held (`holdAfterChunks`), oldest first, and releases that came before their hold. */
  held: (() => void)[];
  released: number;
}

export interface MockServer {
  port: number;
  /** e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  close(): Promise<void>;
}

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    "access-control-allow-origin": typeof origin === "string" ? origin : "*",
    vary: "Origin",
    "access-control-expose-headers": "retry-after, x-request-id",
  };
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: unknown,
  extra: Record<string, string> = {},
) {
  const isText = typeof body === "string";
  res.writeHead(status, {
    ...corsHeaders(req),
    "content-type": isText ? "text/plain; charset=utf-8" : "application/json",
    ...extra,
  });
  res.end(isText ? body : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString("utf8");
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function bearerKey(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? "";
  const m = /^Bearer\s+(.*)$/i.exec(auth);
  return m?.[1]?.trim() ?? "";
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function startMockServer(options: { port?: number; host?: string } = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  const states = new Map<string, KeyState>();
  const stateOf = (key: string): KeyState => {
    let s = states.get(key);
    if (!s) {
      s = { replies: [], requests: [], held: [], released: 0 };
      states.set(key, s);
    }
    return s;
  };

  function holdUntilReleased(state: KeyState): Promise<void> {
    if (state.released > 0) {
      state.released--;
      return Promise.resolve();
    }
    return new Promise<void>((go) => state.held.push(go));
  }

  async function handleChat(req: IncomingMessage, res: ServerResponse, body: unknown, state: KeyState) {
    const request = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
    const spec = state.replies.shift() ?? defaultReply(request);
    if (spec.delayMs && spec.error) await sleep(spec.delayMs);
    if (spec.error) {
      const e = errorResponse(spec.error);
      send(req, res, e.status, e.body, e.headers);
      return;
    }
    const model = typeof request.model === "string" ? request.model : "mock-model";
    if (request.stream !== true) {
      if (spec.delayMs) await sleep(spec.delayMs);
      send(req, res, 200, buildCompletion(spec, model, request));
      return;
    }
    const streamOptions = request.stream_options as { include_usage?: boolean } | undefined;
    const chunks = buildChunks(spec, model, request, streamOptions?.include_usage === true);
    res.writeHead(200, {
      ...corsHeaders(req),
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
    let sent = 0;
    for (const chunk of chunks) {
      if (spec.streamError && sent >= spec.streamError.afterChunks) {
        const { message, code } = spec.streamError;
        res.end(
          `data: ${JSON.stringify({ error: { message, type: "server_error", code: code ?? null } })}\n\n`,
        );
        return;
      }
      if (spec.cutAfterChunks !== undefined && sent >= spec.cutAfterChunks) {
        res.socket?.destroy();
        return;
      }
      if (spec.holdAfterChunks !== undefined && sent === spec.holdAfterChunks) await holdUntilReleased(state);
      if (spec.delayMs) await sleep(spec.delayMs);
      if (res.destroyed) return;
      // Wait for each chunk to be flushed, so a later cut never swallows chunks already "sent".
      await new Promise<void>((done) => res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => done()));
      sent++;
    }
    if (spec.cutAfterChunks !== undefined && sent >= spec.cutAfterChunks) {
      res.socket?.destroy();
      return;
    }
    res.end("data: [DONE]\n\n");
  }

  function handleModels(req: IncomingMessage, res: ServerResponse, state: KeyState) {
    const spec = state.models;
    if (spec?.error) {
      const e = errorResponse(spec.error);
      send(req, res, e.status, e.body, e.headers);
      return;
    }
    const ids = spec?.models ?? DEFAULT_MODELS;
    send(req, res, 200, {
      object: "list",
      data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "mock" })),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", `http://${host}`);
    const path = url.pathname;
    const method = req.method ?? "GET";

    if (method === "OPTIONS") {
      const requested = req.headers["access-control-request-headers"];
      res.writeHead(204, {
        ...corsHeaders(req),
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": typeof requested === "string" ? requested : "*",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }

    if (path.startsWith("/__mock/")) {
      if (path === "/__mock/health") return send(req, res, 200, { ok: true });
      if (path === "/__mock/requests" && method === "GET") {
        const key = url.searchParams.get("key") ?? "";
        return send(req, res, 200, { requests: states.get(key)?.requests ?? [] });
      }
      const body = (await readBody(req)) as Record<string, unknown> | null;
      const key = typeof body?.key === "string" ? body.key : null;
      if (method !== "POST" || key === null) return send(req, res, 400, { error: "POST {key, ...}" });
      if (path === "/__mock/script") {
        const replies = Array.isArray(body?.replies) ? (body.replies as ReplySpec[]) : [];
        stateOf(key).replies.push(...replies);
        return send(req, res, 200, { queued: stateOf(key).replies.length });
      }
      if (path === "/__mock/models") {
        stateOf(key).models = { models: body?.models as string[] | undefined, error: body?.error as never };
        return send(req, res, 200, { ok: true });
      }
      if (path === "/__mock/release") {
        const s = stateOf(key);
        const go = s.held.shift();
        if (go) go();
        else s.released++;
        return send(req, res, 200, { released: go !== undefined });
      }
      if (path === "/__mock/reset") {
        states.delete(key);
        return send(req, res, 200, { ok: true });
      }
      return send(req, res, 404, { error: "unknown control path" });
    }

    const body = await readBody(req);
    const key = bearerKey(req);
    const state = stateOf(key);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers[name] = value;
      else if (Array.isArray(value)) headers[name] = value.join(", ");
    }
    state.requests.push({ method, path, headers, body, at: Date.now() });

    if (method === "POST" && (path === "/v1/chat/completions" || path === "/chat/completions")) {
      return handleChat(req, res, body, state);
    }
    if (method === "GET" && (path === "/v1/models" || path === "/models")) {
      return handleModels(req, res, state);
    }
    send(req, res, 404, {
      error: { message: `Unknown path ${path}`, type: "invalid_request_error", code: "not_found" },
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(req, res, 500, { error: { message: String(err) } });
      else res.destroy();
    });
  });

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        baseUrl: `http://${host}:${port}/v1`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function portFromArgs(argv: string[]): number {
  const i = argv.indexOf("--port");
  const value = i >= 0 ? Number(argv[i + 1]) : Number(process.env.MOCK_PORT ?? 4010);
  return Number.isInteger(value) && value > 0 ? value : 4010;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  const port = portFromArgs(process.argv);
  startMockServer({ port }).then(
    (s) => console.log(`mock OpenAI-compatible server on ${s.baseUrl}`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

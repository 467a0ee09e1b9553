/**
 * Compaction around agent runs (registered with the agent service's hooks):
 *
 * - after a turn, past the threshold (window − reserve): "auto" compacts and continues (toast with
 *   Undo); "ask" opens the preview with a summary generating; "off" does nothing;
 * - before a prompt: in ask mode, while a compaction is under review, the prompt waits (visibly
 *   queued) until the person confirms (it then runs on the compacted path) or skips; past the
 *   threshold with nothing under review, auto compacts first and ask opens the preview;
 * - overflow recovery: a reply rejected as too long (isContextOverflowError) is dropped from the
 *   live context (the compaction's parent is the entry before it; the reply stays in history),
 *   the path is compacted and the turn retried ONCE; a second overflow is reported with advice.
 *   A silent overflow (usage over the window) compacts without retrying.
 * - stale usage: context sizes come from contextTokensOf, which ignores usage from before the
 *   latest compaction, and a path that ends with a compaction is never compacted again.
 */
import { isOverflowErrorReply, isSilentOverflow } from "../core/compaction/overflow.ts";
import { contextTokensOf, indexPath } from "../core/compaction/plan.ts";
import type { CompleteFn } from "../core/compaction/summarize.ts";
import { compactionThreshold } from "../core/compaction/tokens.ts";
import type { AssistantMessage, SessionEntry } from "../core/session/types.ts";
import type { CutpointDb } from "../db/schema.ts";
import { useCompactionStore } from "../store/compaction-store.ts";
import { useUiStore } from "../store/ui-store.ts";
import type { AgentHooks, HookContext } from "./agent-session.ts";
import { type AutoCompactResult, compactAutomatically, undoCompaction } from "./compaction-runner.ts";
import { loadCompactionSettings } from "./compaction-settings.ts";

type Waiter = (path: SessionEntry[] | undefined) => void;
const waiting = new Map<string, Waiter[]>();
const skippedAt = new Map<string, string | null>();

/** Lets the prompts queued behind a compaction under review go: with the compacted path, or as they were (skip). */
export function releaseQueuedPrompts(sessionId: string, path: SessionEntry[] | undefined): void {
  const list = waiting.get(sessionId) ?? [];
  waiting.delete(sessionId);
  if (!path) skippedAt.set(sessionId, null);
  useCompactionStore.getState().setQueued(0);
  for (const w of list) w(path);
}

function queue(sessionId: string): Promise<SessionEntry[] | undefined> {
  return new Promise((resolve) => {
    const list = waiting.get(sessionId) ?? [];
    list.push(resolve);
    waiting.set(sessionId, list);
    useCompactionStore.getState().setQueued(list.length);
  });
}

/** A message the person must see (kept in the panel and as an error toast until dismissed). */
function notify(message: string): void {
  useCompactionStore.getState().setNotice(message);
  useUiStore.getState().pushToast({ kind: "error", message });
}

const fmt = (n: number) => (n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`);

export interface CompactionHooksDeps {
  db: CutpointDb;
  /** Injected for tests (a scripted summarizer); the real adapter otherwise. */
  complete?: CompleteFn;
  /** Called when the one overflow retry is done, to report a second overflow (set by register). */
  watchRetry?: (sessionId: string, onDone: (last: AssistantMessage | undefined) => void) => void;
}

export function createCompactionHooks(deps: CompactionHooksDeps): AgentHooks {
  const { db } = deps;

  async function context(ctx: HookContext) {
    const settings = await loadCompactionSettings(db);
    const window = settings.contextWindow ?? ctx.limits.contextWindow;
    const endpoint = {
      baseUrl: ctx.endpoint.baseUrl,
      apiKey: ctx.endpoint.apiKey,
      provider: ctx.endpoint.provider,
      model: settings.summarizerModel || ctx.endpoint.model,
    };
    return { settings, window, threshold: compactionThreshold(window, settings.reserveTokens), endpoint };
  }

  async function compact(
    ctx: HookContext,
    path: SessionEntry[],
    expectedLeafId: string | null,
    why: string,
  ): Promise<AutoCompactResult> {
    const c = await context(ctx);
    const ui = useUiStore.getState();
    ui.pushToast({ kind: "info", message: `${why}: compacting…`, timeout: 3000 });
    const r = await compactAutomatically(db, {
      sessionId: ctx.sessionId,
      path,
      expectedLeafId,
      settings: c.settings,
      endpoint: c.endpoint,
      signal: new AbortController().signal,
      ...(deps.complete ? { complete: deps.complete } : {}),
      takenIds: new Set(path.map((e) => e.id)),
      ...(ctx.thinkingLevel ? { thinkingLevel: ctx.thinkingLevel } : {}),
    });
    if (!r.ok) {
      ui.pushToast({ kind: "error", message: `Compaction failed: ${r.reason}` });
      return r;
    }
    const entry = r.entry;
    useCompactionStore.getState().setLast({
      sessionId: ctx.sessionId,
      entryId: entry.id,
      tokensBefore: r.tokensBefore,
      tokensAfter: r.tokensAfter,
      auto: true,
    });
    ui.pushToast({
      kind: "success",
      message: `${why}: compacted ${fmt(r.tokensBefore)} → ${fmt(r.tokensAfter)} tokens`,
      action: {
        label: "Undo",
        run: () =>
          void undoCompaction(db, { sessionId: ctx.sessionId, compaction: entry, path }).then((u) => {
            if (!u.ok)
              useUiStore.getState().pushToast({ kind: "error", message: `Undo failed: ${u.error.message}` });
          }),
      },
      timeout: 15000,
    });
    return r;
  }

  return {
    async beforePrompt(ctx) {
      const sessionId = ctx.sessionId;
      const leaf = ctx.path[ctx.path.length - 1]?.id ?? null;
      const c = await context(ctx);
      if (c.settings.mode === "off") return;
      const store = useCompactionStore.getState();
      const reviewing = store.previewOpen && (store.status === "generating" || store.status === "ready");
      if (c.settings.mode === "ask" && reviewing) return queue(sessionId);
      if (ctx.path.length === 0 || ctx.path[ctx.path.length - 1]!.type === "compaction") return;
      const tokens = contextTokensOf(indexPath(ctx.path)).tokens;
      if (tokens <= c.threshold) return;
      if (c.settings.mode === "auto") {
        const r = await compact(ctx, ctx.path, leaf, "Context past the threshold");
        return r.ok ? [...ctx.path, r.entry] : undefined;
      }
      if (skippedAt.has(sessionId)) {
        skippedAt.delete(sessionId);
        return;
      }
      store.openCompactionPreview({
        generate: true,
        reason: `Context at ${Math.round((tokens / c.window) * 100)} % of the window. Review the compaction before the next message.`,
      });
      useUiStore.getState().setRightPanelOpen(true);
      return queue(sessionId);
    },

    async afterRun(ctx) {
      const { result, sessionId } = ctx;
      const last = result.lastAssistant;
      const path = result.path;
      const leaf = path[path.length - 1]?.id ?? null;
      const c = await context(ctx);
      if (last && isOverflowErrorReply(last) && last.model === ctx.endpoint.model) {
        if (c.settings.mode === "off") {
          notify(
            "The model rejected the request as too long. Automatic compaction is off: compact from the meter, or start a new session.",
          );
          return;
        }
        const at = path.findIndex(
          (e) => e.type === "message" && (e as { message?: unknown }).message === last,
        );
        const before = at >= 0 ? path.slice(0, at) : path;
        const r = await compact(ctx, before, leaf, "The context was too long for the model");
        if (!r.ok) {
          notify(`The context is too long and compaction failed: ${r.reason}`);
          return;
        }
        deps.watchRetry?.(sessionId, (again) => {
          if (again && isOverflowErrorReply(again))
            notify(
              "The context is still too long after compacting once, so Cutpoint stopped instead of looping. Lower keep-recent tokens in the preview, compact again, or use a model with a larger window.",
            );
        });
        return { retryWithPath: [...before, r.entry] };
      }
      if (c.settings.mode === "off") return;
      if (path.length === 0 || path[path.length - 1]!.type === "compaction") return;
      if (last && last.stopReason === "aborted") return;
      const silent = last ? isSilentOverflow(last, c.window) : false;
      const tokens = contextTokensOf(indexPath(path)).tokens;
      if (!silent && tokens <= c.threshold) return;
      if (c.settings.mode === "auto" || silent) {
        await compact(
          ctx,
          path,
          leaf,
          silent ? "The reply used more than the window" : "Context past the threshold",
        );
        return;
      }
      useCompactionStore.getState().openCompactionPreview({
        generate: true,
        reason: `Context at ${Math.round((tokens / c.window) * 100)} % of the window. Review the compaction before the next message.`,
      });
      useUiStore.getState().setRightPanelOpen(true);
    },
  };
}

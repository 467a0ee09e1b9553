/**
 * Compaction around agent runs (registered with the agent service's hooks). What to do comes
 * from core's decideCompaction (pi 1.6's rules) before a prompt, between the turns of a run and
 * after a run; this module carries it out: auto compacts and goes on (with Undo), ask opens the
 * review and holds the prompt or the run until Confirm or Skip, remind only says so, recovery
 * hides the failed attempt with omission edits, compacts and retries once. The UI is passed in
 * (CompactionUi): services import no store.
 */
import { type CompactionDecision, decideCompaction } from "../../core/compaction/decide.ts";
import type { CompleteFn } from "../../core/compaction/summarize.ts";
import type { AssistantMessage, SessionEntry } from "../../core/session/types.ts";
import type { CutpointDb } from "../../db/schema.ts";
import type { AgentHooks, HookContext } from "../agent/agent-session.ts";
import { fitSettings, sessionStartTokens } from "./compaction-fit.ts";
import {
  type AutoCompactResult,
  compactAutomatically,
  hideFailedAttempt,
  undoCompaction,
} from "./compaction-runner.ts";
import { loadCompactionSettings } from "./compaction-settings.ts";
import type { PromptWaits } from "./prompt-waits.ts";
import { type ReviewQueue, WAIT_CANCELLED } from "./review-queue.ts";

export interface CompactionNotice {
  sessionId: string;
  /** Notices with the same key replace each other (progress, then its result). */
  key: string;
  kind: "info" | "success" | "error";
  message: string;
  action?: { label: string; run: () => void };
}

/** What the hooks need from the UI, provided by src/ui/compaction/register.ts. */
export interface CompactionUi {
  /** True while a compaction of this session is under review (generating or ready). */
  isReviewing(sessionId: string): boolean;
  /** Opens the review of this session with a summary generating. */
  openReview(sessionId: string, reason: string): void;
  /** How many prompts or runs wait for the review. */
  setWaiting(sessionId: string, count: number): void;
  notify(notice: CompactionNotice): void;
  /** The last automatic compaction, for the "Last run" view. */
  compacted(info: { sessionId: string; entryId: string; tokensBefore: number; tokensAfter: number }): void;
}

const fmt = (n: number) => (n < 10_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`);

export interface CompactionHooksDeps {
  db: CutpointDb;
  ui: CompactionUi;
  /** Injected for tests (a scripted summarizer); the real adapter otherwise. */
  complete?: CompleteFn;
  /** Where a prompt that waits for a review is kept (durable across reloads). */
  waits?: PromptWaits;
  /** The tab's review queue: what waits for a review, released by Confirm or Skip. */
  queue: ReviewQueue;
}

export function createCompactionHooks(deps: CompactionHooksDeps): AgentHooks {
  const { db } = deps;
  /** One compact-and-retry per prompt (pi 1.6): set on recovery, cleared by a new prompt or a good reply. */
  const recovered = new Set<string>();
  deps.queue.onWaitingCount((sessionId, count) => deps.ui.setWaiting(sessionId, count));

  async function context(ctx: HookContext) {
    // Reserve and keep-recent fitted to the model's window (services/compaction/compaction-fit.ts).
    const fitted = fitSettings(
      await loadCompactionSettings(db, ctx.sessionId),
      ctx.limits,
      sessionStartTokens(ctx.path),
    );
    const { settings, contextWindow: window } = fitted;
    const endpoint = {
      baseUrl: ctx.endpoint.baseUrl,
      apiKey: ctx.endpoint.apiKey,
      provider: ctx.endpoint.provider,
      model: settings.summarizerModel || ctx.endpoint.model,
    };
    return { settings, window, endpoint };
  }

  function decide(
    ctx: HookContext,
    c: Awaited<ReturnType<typeof context>>,
    moment: "before-prompt" | "between-turns" | "after-run",
    path: readonly SessionEntry[],
    last?: AssistantMessage,
    lastMaxTokens?: number,
  ): CompactionDecision {
    return decideCompaction({
      moment,
      path,
      mode: c.settings.mode === "remind" ? "ask" : c.settings.mode,
      remindOnly: c.settings.mode === "remind",
      contextWindow: c.window,
      reserveTokens: c.settings.reserveTokens,
      trigger: c.settings.trigger,
      model: ctx.endpoint.model,
      // The max_tokens the request asked for (fitted to the room left), else the model's limit.
      ...((last && lastMaxTokens) || ctx.limits.maxOutput
        ? { maxOutputTokens: (last && lastMaxTokens) || ctx.limits.maxOutput }
        : {}),
      ...(last ? { lastReply: last } : {}),
      recoveryAttempted: recovered.has(ctx.sessionId),
    });
  }

  async function compact(
    ctx: HookContext,
    path: SessionEntry[],
    why: string,
    trigger: "threshold" | "overflow",
  ): Promise<AutoCompactResult> {
    const c = await context(ctx);
    const key = `compaction:${ctx.sessionId}`;
    deps.ui.notify({ sessionId: ctx.sessionId, key, kind: "info", message: `${why}: compacting…` });
    const r = await compactAutomatically(db, {
      sessionId: ctx.sessionId,
      path,
      expectedLeafId: path[path.length - 1]?.id ?? null,
      settings: c.settings,
      endpoint: c.endpoint,
      signal: new AbortController().signal,
      ...(deps.complete ? { complete: deps.complete } : {}),
      takenIds: new Set(path.map((e) => e.id)),
      ...(ctx.thinkingLevel ? { thinkingLevel: ctx.thinkingLevel } : {}),
      trigger,
    });
    if (!r.ok) {
      deps.ui.notify({
        sessionId: ctx.sessionId,
        key,
        kind: "error",
        message: `Compaction failed: ${r.reason}`,
      });
      return r;
    }
    const entry = r.entry;
    deps.ui.compacted({
      sessionId: ctx.sessionId,
      entryId: entry.id,
      tokensBefore: r.tokensBefore,
      tokensAfter: r.tokensAfter,
    });
    deps.ui.notify({
      sessionId: ctx.sessionId,
      key,
      kind: "success",
      message: `${why}: compacted ${fmt(r.tokensBefore)} → ${fmt(r.tokensAfter)} tokens`,
      action: {
        label: "Undo",
        run: () =>
          void undoCompaction(db, { sessionId: ctx.sessionId, compaction: entry, path }).then((u) => {
            if (!u.ok)
              deps.ui.notify({
                sessionId: ctx.sessionId,
                key,
                kind: "error",
                message: `Undo failed: ${u.error.message}`,
              });
          }),
      },
    });
    return r;
  }

  const reviewReason = (tokens: number, window: number, moment: "between-turns" | "next-message") =>
    `Context at ${Math.round((tokens / window) * 100)} % of the window. Review the compaction before ${moment === "between-turns" ? "the model goes on (the run waits)" : "the next message"}.`;

  /** Carries out a threshold decision; returns the path to go on from (undefined: as it was). */
  async function onThreshold(
    ctx: HookContext,
    d: CompactionDecision,
    window: number,
    path: SessionEntry[],
    moment: "between-turns" | "next-message",
  ): Promise<SessionEntry[] | undefined> {
    const sessionId = ctx.sessionId;
    if (d.action === "remind") {
      deps.ui.notify({
        sessionId,
        key: `remind:${sessionId}`,
        kind: "info",
        message: `Context at ${Math.round((d.tokens / window) * 100)} % of the window, past the trigger. Compact from the meter when you are ready.`,
      });
      return;
    }
    if (d.action === "auto") {
      const r = await compact(
        ctx,
        path,
        d.why === "silent-overflow" ? "The reply used more than the window" : "Context past the threshold",
        d.why === "silent-overflow" ? "overflow" : "threshold",
      );
      return r.ok ? [...path, r.entry] : undefined;
    }
    if (d.action !== "ask") return;
    if (deps.queue.takeSkip(sessionId)) return;
    deps.ui.openReview(sessionId, reviewReason(d.tokens, window, moment));
    return wait(ctx);
  }

  /**
   * Waits for the review: a prompt is stored first (it survives a reload), and let go when the
   * review is decided (it goes out now) or the wait is stopped (its text goes back to the person).
   */
  async function wait(ctx: HookContext): Promise<SessionEntry[] | undefined> {
    const prompt = ctx.prompt;
    if (prompt !== undefined && deps.waits) await deps.waits.hold(ctx.sessionId, prompt);
    try {
      const r = await deps.queue.waitFor(ctx.sessionId, ctx.signal);
      return r === WAIT_CANCELLED ? undefined : r;
    } finally {
      if (prompt !== undefined && deps.waits) await deps.waits.letGo(ctx.sessionId);
    }
  }

  return {
    async beforePrompt(ctx) {
      recovered.delete(ctx.sessionId);
      const c = await context(ctx);
      if (c.settings.mode === "off") return;
      if (c.settings.mode !== "auto" && deps.ui.isReviewing(ctx.sessionId)) {
        // Never a wait without its review in sight (a reload closes the side panel).
        deps.ui.openReview(ctx.sessionId, "Your message waits for this review: confirm or skip it.");
        return wait(ctx);
      }
      return onThreshold(ctx, decide(ctx, c, "before-prompt", ctx.path), c.window, ctx.path, "next-message");
    },

    async betweenTurns(ctx) {
      const c = await context(ctx);
      if (c.settings.mode === "off") return;
      if (c.settings.mode !== "auto" && deps.ui.isReviewing(ctx.sessionId)) {
        deps.ui.openReview(ctx.sessionId, "The run waits for this review: confirm or skip it.");
        return wait(ctx);
      }
      return onThreshold(ctx, decide(ctx, c, "between-turns", ctx.path), c.window, ctx.path, "between-turns");
    },

    async afterRun(ctx) {
      const { result, sessionId } = ctx;
      const last = result.lastAssistant;
      const path = result.path;
      if (last && last.stopReason !== "error" && last.stopReason !== "length") recovered.delete(sessionId);
      const c = await context(ctx);
      const d = decide(ctx, c, "after-run", path, last, result.requestedMaxTokens);
      if (d.action === "report") {
        deps.ui.notify({ sessionId, key: `overflow:${sessionId}`, kind: "error", message: d.message });
        return;
      }
      if (d.action === "recover") {
        recovered.add(sessionId);
        const hidden = await hideFailedAttempt(db, { sessionId, path, omit: d.omit });
        if (!hidden.ok) {
          deps.ui.notify({ sessionId, key: `overflow:${sessionId}`, kind: "error", message: hidden.reason });
          return;
        }
        const why = d.why === "overflow" ? "The context was too long for the model" : "The reply was cut off";
        const r = await compact(ctx, hidden.path, why, "overflow");
        if (!r.ok) {
          deps.ui.notify({
            sessionId,
            key: `overflow:${sessionId}`,
            kind: "error",
            message: `The context is too long and compaction failed: ${r.reason}`,
          });
          return;
        }
        return { retryWithPath: [...hidden.path, r.entry] };
      }
      if (d.action === "ask") {
        // After a run nothing waits: the review opens, and the next prompt waits for it.
        deps.ui.openReview(sessionId, reviewReason(d.tokens, c.window, "next-message"));
        return;
      }
      await onThreshold(ctx, d, c.window, path, "next-message");
    },
  };
}

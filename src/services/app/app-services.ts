/**
 * The tab's services, made once by src/main.tsx over the app database and handed to the UI
 * (ui/hooks/app-services.tsx): the owners of what lives as long as the tab (the review queue, the
 * entries in memory), and the actions the UI asks for, bound to the database so the UI never
 * holds it.
 */

import type { TreeData } from "../../core/session/session-tree.ts";
import type { CompactionEntry, SessionEntry } from "../../core/session/types.ts";
import type { Result, SessionRow } from "../../db/index.ts";
import type { CutpointDb } from "../../db/schema.ts";
import type { AgentHooks } from "../agent/agent-types.ts";
import { type Live, live } from "../common/live.ts";
import type { CompactionUi } from "../compaction/compaction-agent-hooks.ts";
import { loadSavedReview, type SavedReview, saveReview } from "../compaction/compaction-drafts.ts";
import type { Confirmed, ConfirmOutcome, ConfirmRequest } from "../compaction/confirm-service.ts";
import { createOverflowWaysOut, type OverflowWaysOut } from "../compaction/overflow-ways-out.ts";
import { createPromptWaits, type PromptWaits, type WaitingPrompt } from "../compaction/prompt-waits.ts";
import { createReviewQueue, type ReviewQueue } from "../compaction/review-queue.ts";
import type { UndoOutcome } from "../compaction/undo-service.ts";
import { createPendingEntries, type PendingEntries } from "../session/pending-entries.ts";
import { createSessionHandover, type SessionHandover } from "../session/session-handover.ts";
import { createSessionOpener, type SessionOpener } from "../session/session-open.ts";
import { createUndoOffers, type UndoOffers } from "../session/undo-offers.ts";
import { createSyncHandle, type SyncHandle } from "../sync/sync-handle.ts";
import { moveLeafShown } from "../tree/leaf-move-shown.ts";

/** What the compaction UI asks of the services. */
export interface CompactionActions {
  /** Confirm: coverage, record, write, and the waiting prompts released (services/compaction/confirm-service.ts). */
  confirm(req: ConfirmRequest, onWritten?: (done: Confirmed) => void): Promise<ConfirmOutcome>;
  undo(input: {
    sessionId: string;
    compaction: CompactionEntry;
    path?: readonly SessionEntry[];
  }): Promise<UndoOutcome>;
  redo(input: {
    sessionId: string;
    compaction: CompactionEntry;
  }): Promise<{ ok: true } | { ok: false; message: string }>;
  /** Skip: closes nothing in the UI, lets what waits for the review go as it was. */
  skip(sessionId: string): void;
  loadReview(sessionId: string): Promise<SavedReview | undefined>;
  saveReview(sessionId: string, review: SavedReview): Promise<unknown>;
  /** The agent hooks (auto-compaction, ask mode, overflow recovery) with the UI they use; loaded once, on demand. */
  hooks(ui: CompactionUi): Promise<AgentHooks>;
}

/** The ways out of stranded states: prompts that wait for a review, and the overflow dead end. */
export interface StrandedServices {
  waits: PromptWaits;
  overflow: OverflowWaysOut;
  /** The session's stored waiting prompt (undefined: none). */
  watchWaitingPrompt(sessionId: string): Live<WaitingPrompt | undefined>;
}

export interface TreeActions {
  /** A leaf move shown at once and then written (services/tree/leaf-move-shown.ts). */
  moveLeafShown(sessionId: string, data: TreeData, targetId: string | null): Promise<Result<SessionRow>>;
}

export interface AppServices {
  /** The prompts and runs that wait for a review, and who hears it decided. */
  reviewQueue: ReviewQueue;
  compaction: CompactionActions;
  /** The entries in memory: an import's offer, and what is kept for a switch back. */
  handover: SessionHandover;
  /** The open of a session (preview, outline, whole), its row and its appends. */
  sessions: SessionOpener;
  /** Entries shown before their write commits (a leaf move in the frame of the click). */
  pending: PendingEntries;
  /** The deleted sessions whose Undo is offered (one offer each). */
  undoOffers: UndoOffers;
  stranded: StrandedServices;
  tree: TreeActions;
  /** The sync engine, started on first use, and its status (services/sync/sync-handle.ts). */
  sync: SyncHandle;
}

export function createAppServices(db: CutpointDb): AppServices {
  const reviewQueue = createReviewQueue();
  const handover = createSessionHandover();
  const pending = createPendingEntries();
  const waits = createPromptWaits(db);
  const stranded: StrandedServices = {
    waits,
    overflow: createOverflowWaysOut(db),
    watchWaitingPrompt: (sessionId) => live(() => waits.read(sessionId)),
  };
  const tree: TreeActions = {
    // Not loaded on demand: the move is shown in the same frame as the click.
    moveLeafShown: (sessionId, data, targetId) => moveLeafShown({ db, pending }, sessionId, data, targetId),
  };
  let hooks: Promise<AgentHooks> | undefined;
  // Confirm, Undo and the hooks load with the review or the first run, not with the page.
  const compaction: CompactionActions = {
    confirm: async (req, onWritten) =>
      (await import("../compaction/confirm-service.ts")).confirmReview(
        { db, queue: reviewQueue },
        req,
        onWritten,
      ),
    undo: async (input) => (await import("../compaction/undo-service.ts")).undoStep(db, input),
    redo: async (input) => (await import("../compaction/undo-service.ts")).redoStep(db, input),
    skip: (sessionId) => reviewQueue.release(sessionId, undefined),
    loadReview: (sessionId) => loadSavedReview(db, sessionId),
    saveReview: (sessionId, review) => saveReview(db, sessionId, review),
    hooks: (ui) =>
      (hooks ??= import("../compaction/compaction-agent-hooks.ts").then((m) =>
        m.createCompactionHooks({ db, ui, waits, queue: reviewQueue }),
      )),
  };
  // The sync code loads with the engine's start (after the page has loaded), not with the page.
  const sync = createSyncHandle(async () => {
    const [{ createSyncEngine }, { keyStores }] = await Promise.all([
      import("../sync/sync-engine.ts"),
      import("../keys/key-vault.ts"),
    ]);
    return createSyncEngine({ db, stores: keyStores(db) });
  });
  return {
    reviewQueue,
    compaction,
    handover,
    sessions: createSessionOpener({ db, handover }),
    pending,
    undoOffers: createUndoOffers(),
    stranded,
    tree,
    sync,
  };
}

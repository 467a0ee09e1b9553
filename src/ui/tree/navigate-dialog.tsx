/**
 * Navigation with a branch summary (docs/session-format.md §12): where the leaf lands, the common
 * ancestor, what would be summarized (entries, tokens, files), the summary streamed from the
 * model (or an offline draft without a key), editable; then Confirm (writes the branch_summary,
 * which becomes the leaf), Skip (a move entry only) or Cancel (nothing is written).
 */

import { useEffect, useMemo, useRef, useState } from "react";
import { FULL_WINDOW, modelReserve } from "../../core/compaction/model-fit.ts";
import { BRANCH_SUMMARY_PREAMBLE } from "../../core/compaction/prompts.ts";
import type { TreeData } from "../../core/session/session-tree.ts";
import type { FileListDetails, Usage } from "../../core/session/types.ts";
import { modelLimits } from "../../services/agent/agent-settings.ts";
import { providerSettings } from "../../services/agent/provider-instance.ts";
import { appCompactionSettings } from "../../services/compaction/compaction-settings-instance.ts";
import { entryExcerpt, planNavigation } from "../../services/tree/branch-navigation.ts";
import { appTree } from "../../services/tree/tree-instance.ts";
import { type LeafMoveRequest, type LeafMoveVia, useTreeStore } from "../../store/tree-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { Dialog } from "../common/dialog.tsx";
import { inputStamp } from "../common/input-stamp.ts";
import { HiddenCharsNote, SafeText } from "../common/safe-text.tsx";
import { formatCount, formatTokens } from "../format.ts";
import { useAppServices } from "../hooks/app-services.tsx";
import { completeLeafMove } from "./leaf-move.ts";

interface Limits {
  reserveTokens: number;
  contextWindow?: number;
  online: boolean;
}

type Phase = "idle" | "generating" | "ready" | "failed" | "saving";

/** "Don't ask again": leaf moves stop offering a summary (Settings → Compaction turns it back on). */
async function turnOffOffer(): Promise<void> {
  const r = await appCompactionSettings.save({ branchSummary: "never" });
  useUiStore.getState().pushToast(
    r.ok
      ? {
          kind: "info",
          message: "Leaving a branch no longer offers a summary. Settings → Compaction turns it back on.",
        }
      : { kind: "error", message: r.error.message },
  );
}

export function NavigateDialog({ sessionId, data }: { sessionId: string; data: TreeData }) {
  const navigation = useTreeStore((s) => s.navigation);
  if (navigation === null || navigation.sessionId !== sessionId) return null;
  // Keyed by the target: a new navigation starts from a clean state.
  return (
    <NavigateBody
      key={`${navigation.via}:${String(navigation.targetId)}`}
      sessionId={sessionId}
      data={data}
      request={navigation}
    />
  );
}

const TITLES: Record<LeafMoveVia, string> = {
  tree: "Go to another point of the tree",
  switch: "Switch to another branch",
  edit: "Edit and resend",
  continue: "Continue from here",
};

function NavigateBody({
  sessionId,
  data,
  request,
}: {
  sessionId: string;
  data: TreeData;
  request: LeafMoveRequest;
}) {
  const { targetId } = request;
  const end = useTreeStore((s) => s.endNavigation);
  const { tree } = useAppServices();
  // The leaf and entries as they were when the dialog opened (a live append must not change the plan).
  const [d] = useState(data);
  const [limits, setLimits] = useState<Limits | undefined>(undefined);
  const oldPath = d.path;

  useEffect(() => {
    let live = true;
    void (async () => {
      const [compaction, provider, online] = await Promise.all([
        appCompactionSettings.load(),
        providerSettings.load(),
        appTree.summarizerAvailable(oldPath),
      ]);
      const window =
        compaction.contextWindow ??
        (provider.model ? modelLimits(provider, provider.model).contextWindow : undefined);
      if (live)
        setLimits({
          reserveTokens: compaction.reserveTokens ?? modelReserve(window ?? FULL_WINDOW),
          ...(window ? { contextWindow: window } : {}),
          online,
        });
    })();
    return () => {
      live = false;
    };
  }, [oldPath]);

  const plan = useMemo(
    () =>
      planNavigation(
        d.index,
        d.leafId,
        targetId,
        {
          reserveTokens: limits?.reserveTokens ?? 16384,
          ...(limits?.contextWindow ? { contextWindow: limits.contextWindow } : {}),
        },
        request.landing ?? "rule",
      ),
    [d, targetId, limits, request.landing],
  );

  const [summary, setSummary] = useState("");
  const [details, setDetails] = useState<FileListDetails | undefined>(undefined);
  /** The summarizer's usage, stored on the entry (pi 1.6); none for an offline draft or an edit by hand. */
  const [usage, setUsage] = useState<Usage | undefined>(undefined);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState("");
  const [focus, setFocus] = useState("");
  const [offline, setOffline] = useState(false);
  const [dontAsk, setDontAsk] = useState(false);
  const [listOpen, setListOpen] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const close = () => {
    controller.current?.abort();
    end();
  };
  if (!plan) {
    return (
      <Dialog open title="Go to entry" name="navigate" onClose={close}>
        <p>That entry is not in this session any more.</p>
      </Dialog>
    );
  }

  const generate = async () => {
    controller.current?.abort();
    const ctrl = new AbortController();
    controller.current = ctrl;
    setPhase("generating");
    setError("");
    setSummary(`${BRANCH_SUMMARY_PREAMBLE}\n\n`);
    const r = await appTree.draftBranchSummary(plan, {
      signal: ctrl.signal,
      path: oldPath,
      focus,
      onDelta: (delta) => setSummary((s) => s + delta),
    });
    if (ctrl.signal.aborted && !r.ok) {
      setPhase("idle");
      setSummary("");
      return;
    }
    if (!r.ok) {
      setPhase("failed");
      setError(r.error);
      return;
    }
    setSummary(r.summary);
    setDetails(r.details);
    setUsage(r.usage);
    setOffline(r.offline);
    setPhase("ready");
  };

  // What follows a move written from here (the dialog is closed by then).
  const finish = (summary: "written" | "skipped" | "none", since: number) => {
    completeLeafMove(sessionId, request, plan, summary, since);
    if (dontAsk) void turnOffOffer();
  };

  // Skip shows the move at once (the dialog closes in the same render as the new path is drawn);
  // a write that fails takes it back and says so.
  const skip = async () => {
    const since = inputStamp();
    const moved = tree.moveLeafShown(sessionId, d, plan.newLeafId);
    end();
    const r = await moved;
    if (!r.ok) {
      useUiStore.getState().pushToast({ kind: "error", message: `Nothing moved. ${r.error.message}` });
      return;
    }
    finish(leaving ? "skipped" : "none", since);
  };

  // Confirm keeps the dialog (and the summary typed in it) until the entry is written.
  const confirm = async () => {
    const since = inputStamp();
    setPhase("saving");
    const r = await appTree.confirmBranchSummary(
      sessionId,
      { newLeafId: plan.newLeafId, summary, ...(details ? { details } : {}), ...(usage ? { usage } : {}) },
      { taken: d.index.byId, expectedLeafId: d.leafId },
    );
    if (!r.ok) {
      setPhase("failed");
      setError(r.error.message);
      return;
    }
    end();
    finish("written", since);
  };

  const leaving = plan.leavesContent;
  const { prep } = plan;
  const files = prep.fileOps;
  const busy = phase === "generating" || phase === "saving";
  // The live leaf moved away from the one this preview was planned on (not by this dialog's own write).
  const stale = data.leafId !== d.leafId && phase !== "saving";
  const actions = (
    <>
      {leaving && (
        <label
          className="nav-dont-ask"
          title="Moves that leave a branch will just move; Settings → Compaction turns the offer back on"
        >
          <input
            type="checkbox"
            checked={dontAsk}
            onChange={(e) => setDontAsk(e.target.checked)}
            disabled={phase === "saving"}
          />
          Don’t ask again
          {dontAsk && <span> (Settings → Compaction turns it back on)</span>}
        </label>
      )}
      <button type="button" className="btn" onClick={close}>
        Cancel
      </button>
      {phase === "generating" && (
        <button type="button" className="btn" onClick={() => controller.current?.abort()}>
          Stop
        </button>
      )}
      <button
        type="button"
        className="btn"
        onClick={() => void skip()}
        disabled={busy || stale}
        data-autofocus={leaving ? undefined : true}
      >
        {leaving ? "Skip summary" : "Move"}
      </button>
      {leaving && (
        <button
          type="button"
          className="btn primary"
          onClick={() => void confirm()}
          disabled={busy || stale || summary.trim() === "" || phase === "idle"}
        >
          Confirm
        </button>
      )}
    </>
  );

  return (
    <Dialog open title={TITLES[request.via]} name="navigate" onClose={close} actions={actions}>
      <dl className="nav-facts">
        <dt>Target</dt>
        <dd data-testid="nav-target">
          <SafeText text={entryExcerpt(plan.target)} />
        </dd>
        <dt>New position</dt>
        <dd>
          {plan.editorText !== undefined
            ? "Before that message (its text goes back into the composer to edit and resend)"
            : "At that entry"}
        </dd>
        <dt>Common ancestor</dt>
        <dd data-testid="nav-ancestor">
          <SafeText text={entryExcerpt(plan.commonAncestor)} />
        </dd>
        <dt>Branch left</dt>
        <dd data-testid="nav-left">
          {leaving
            ? `${formatCount(plan.left.length)} entries; the summary covers ${formatCount(prep.messages.length)} ${prep.messages.length === 1 ? "message" : "messages"} ≈ ${formatTokens(prep.totalTokens)} tokens (budget ${formatTokens(prep.budget)})`
            : plan.left.length > 0
              ? `${formatCount(plan.left.length)} entries without messages (labels, settings): nothing to summarize`
              : "nothing: this move leaves no branch behind"}
        </dd>
      </dl>
      {leaving && (
        <>
          <details className="nav-entries" onToggle={(e) => setListOpen(e.currentTarget.open)}>
            <summary>Entries to summarize ({formatCount(prep.entryIds.length)})</summary>
            {/* Rendered only while open: up to 200 rows would slow the dialog's opening and closing. */}
            {listOpen && prep.entryIds.length > 200 && (
              <p className="nav-note">The last 200 of them, oldest first:</p>
            )}
            {listOpen && (
              <ol>
                {prep.entryIds.slice(-200).map((id) => (
                  <li key={id}>
                    <SafeText text={entryExcerpt(d.index.byId.get(id) ?? null, 100)} />
                  </li>
                ))}
              </ol>
            )}
          </details>
          {(files.readFiles.length > 0 || files.modifiedFiles.length > 0) && (
            <p className="nav-files">
              Files read: {files.readFiles.length} · modified: {files.modifiedFiles.length}
              {files.modifiedFiles.length > 0 && (
                <>
                  {" "}
                  (<SafeText text={files.modifiedFiles.slice(0, 5).join(", ")} />)
                </>
              )}
            </p>
          )}
          <label className="nav-focus">
            Focus (optional)
            <input
              value={focus}
              onChange={(e) => setFocus(e.target.value)}
              disabled={busy}
              placeholder="what the summary should keep"
            />
          </label>
          <div className="nav-generate">
            <button
              type="button"
              className="btn"
              onClick={() => void generate()}
              disabled={busy}
              data-autofocus
            >
              {phase === "idle"
                ? limits?.online
                  ? "Generate summary"
                  : "Write offline draft"
                : "Regenerate"}
            </button>
            <span className="nav-note">
              {limits?.online
                ? "Streams from your model."
                : "No API key or model set: a draft is written here, offline."}
              {offline && phase === "ready" ? " Offline draft — edit it before confirming." : ""}
            </span>
          </div>
          <label className="nav-summary">
            Summary (editable)
            <textarea
              value={summary}
              onChange={(e) => setSummary(e.target.value)}
              rows={10}
              readOnly={phase === "generating"}
              aria-busy={phase === "generating"}
              data-testid="nav-summary"
            />
            <HiddenCharsNote value={summary} />
          </label>
        </>
      )}
      {stale && (
        <p className="nav-error" role="alert" data-testid="nav-stale">
          The session changed since this preview opened (a message or a move, perhaps in another tab): this
          plan no longer holds. Cancel and look again; the summary above can still be copied.
        </p>
      )}
      {error && !stale && (
        <p className="nav-error" role="alert">
          <SafeText text={error} />
        </p>
      )}
    </Dialog>
  );
}

/**
 * The review's second strategy: mask old tool outputs instead of (or before) summarizing. Shows
 * what masking would save beside what the summary saves, writes the masking as pi 1.6
 * `context_edit` entries (the originals stay in the file), and offers Undo. Planned only when
 * opened: it indexes the whole path.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { breakdownOf } from "../../core/compaction/breakdown.ts";
import { DEFAULT_MASK_MIN_TOKENS, planMasking } from "../../core/compaction/masking.ts";
import type { CompactionPlan } from "../../core/compaction/plan.ts";
import { sizeAfterEdit } from "../../core/compaction/size-after-edit.ts";
import { appMasking } from "../../services/compaction/masking-instance.ts";
import { sessionState, useCompactionStore } from "../../store/compaction-store.ts";
import { useUiStore } from "../../store/ui-store.ts";
import { refocusIfLost } from "../common/focus-return.ts";
import { compactionControls } from "./focus-return.ts";
import { fullTokens, plural } from "./format-tokens.ts";
import { maskOvertaken, type SeenPlan } from "./plan-overtaken.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

type Scope = "outside" | "all";

function MaskingBody({
  model,
  plan,
  summarySaves,
}: {
  model: CompactionModel;
  plan: CompactionPlan | undefined;
  summarySaves: number | undefined;
}) {
  const [scope, setScope] = useState<Scope>(plan ? "outside" : "all");
  const [minTokens, setMinTokens] = useState(DEFAULT_MASK_MIN_TOKENS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const beforeIndex = scope === "outside" && plan ? plan.firstKeptIndex : model.path.length;
  const preview = useMemo(
    () =>
      planMasking(model.path, {
        beforeIndex,
        minTokens,
        estimator: model.planner.estimator,
        newId: (n) => `preview-${n}`,
        timestamp: "",
      }),
    [model.path, model.planner, beforeIndex, minTokens],
  );
  const n = preview.targets.length;
  // Masked, the meter reads the estimate (the edits set the provider's count aside) until the next reply.
  const after = sizeAfterEdit(
    breakdownOf(model.account, model.context),
    model.account.estimate - preview.savedTokens,
  );
  const stillOver = (after.nextReply ?? after.estimated) > model.threshold;
  // The plan the person saw; when another tab or a run moves the session on, the new plan is
  // said and applied only on request (never a silent switch from 76 outputs to 6).
  const leafId = model.path[model.path.length - 1]?.id ?? null;
  const [seen, setSeen] = useState<SeenPlan>({ leafId, count: n });
  // The leaf this panel's own Mask wrote: reaching it is not another plan.
  const [ownLeaf, setOwnLeaf] = useState<string | null | undefined>(undefined);
  const mine = seen.leafId === leafId || ownLeaf === leafId;
  const overtaken = mine ? null : maskOvertaken(seen, leafId, n);
  useEffect(() => {
    // The person's own changes (scope, size, a Mask) are seen as they make them.
    if (mine && (seen.leafId !== leafId || seen.count !== n)) setSeen({ leafId, count: n });
  }, [mine, seen, leafId, n]);

  const bodyRef = useRef<HTMLDivElement>(null);
  const mask = async () => {
    setBusy(true);
    setError(null);
    const r = await appMasking.mask({
      sessionId: model.sessionId,
      path: model.path,
      beforeIndex,
      minTokens,
    });
    setBusy(false);
    if (!r.ok) {
      setError(r.reason);
      return;
    }
    setOwnLeaf(r.path[r.path.length - 1]?.id ?? null);
    const ids = r.plan.targets.map((t) => t.entryId);
    const store = useCompactionStore.getState();
    store.patch(model.sessionId, {
      maskedInReview: sessionState(store, model.sessionId).maskedInReview + ids.length,
    });
    useUiStore.getState().pushToast({
      kind: "success",
      key: `masking:${model.sessionId}`,
      sessionId: model.sessionId,
      message: `Masked ${plural(ids.length, "tool output")}: ≈ ${fullTokens(r.plan.savedTokens)} tokens saved`,
      action: {
        label: "Undo",
        run: () =>
          void appMasking.unmask({ sessionId: model.sessionId, path: r.path, targetIds: ids }).then((u) =>
            useUiStore.getState().pushToast({
              kind: u.ok ? "info" : "error",
              key: `masking:${model.sessionId}`,
              sessionId: model.sessionId,
              message: u.ok ? "Masking undone: the tool outputs are back for the model." : u.reason,
            }),
          ),
      },
      timeout: 10000,
    });
    // The button is disabled now (nothing left to mask): the focus goes to the panel's heading.
    const heading = bodyRef.current?.closest("details")?.querySelector("summary");
    refocusIfLost(() => [heading, ...compactionControls()]);
  };

  return (
    <div className="cp-masking-body" ref={bodyRef}>
      <div className="cp-masking-controls">
        <label>
          <input
            type="radio"
            name={`mask-scope-${model.sessionId}`}
            checked={scope === "outside"}
            disabled={!plan}
            onChange={() => setScope("outside")}
          />{" "}
          outside the kept range
        </label>
        <label>
          <input
            type="radio"
            name={`mask-scope-${model.sessionId}`}
            checked={scope === "all"}
            onChange={() => setScope("all")}
          />{" "}
          anywhere
        </label>
        <label>
          of at least{" "}
          <input
            type="number"
            min={0}
            step={100}
            value={minTokens}
            data-testid="mask-min-tokens"
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 0) setMinTokens(v);
            }}
          />{" "}
          tokens
        </label>
      </div>
      <p data-testid="masking-saves">
        Masking {plural(n, "tool output")} saves ≈ <b>{fullTokens(preview.savedTokens)}</b> tokens (
        {fullTokens(model.context.tokens)} → ≈{" "}
        <span data-testid="masking-after">{fullTokens(after.estimated)}</span> estimated
        {after.nextReply !== undefined && (
          <>
            ; the next reply may report about{" "}
            <span data-testid="masking-next-reply">{fullTokens(after.nextReply)}</span>: see /context
          </>
        )}
        )
        {summarySaves !== undefined && (
          <>
            ; the summary saves ≈ <b>{fullTokens(summarySaves)}</b>
          </>
        )}
        .{" "}
        {n > 0 &&
          (stillOver
            ? "Still over the threshold after masking: summarize too (the plan above updates once it is masked)."
            : "Under the threshold after masking: no summary needed.")}
      </p>
      <p className="cp-note">
        Each output is replaced for the model by a line naming the tool, its arguments, its size and its first
        line. The original stays in the file, and Undo gives it back.
      </p>
      {error && (
        <p className="cp-error" role="alert">
          {error}
        </p>
      )}
      {overtaken ? (
        <div className="cp-error" role="alert" data-testid="mask-overtaken">
          <p>{overtaken} Nothing was masked.</p>
          {n > 0 && (
            <button
              type="button"
              className="btn small"
              disabled={busy}
              onClick={() => void mask()}
              data-testid="mask-apply-new"
            >
              Mask {plural(n, "output")} (the new plan)
            </button>
          )}{" "}
          <button
            type="button"
            className="btn small ghost"
            onClick={() => {
              setSeen({ leafId, count: n });
              const details = bodyRef.current?.closest("details");
              if (details) details.open = false;
            }}
            data-testid="mask-overtaken-cancel"
          >
            {n > 0 ? "Cancel" : "Close"}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="btn"
          disabled={n === 0 || busy}
          onClick={() => void mask()}
          data-testid="mask-apply"
        >
          Mask {plural(n, "output")}
        </button>
      )}
    </div>
  );
}

export function MaskingPanel(props: {
  model: CompactionModel;
  plan: CompactionPlan | undefined;
  summarySaves: number | undefined;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="cp-masking"
      data-testid="masking"
      open={open}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>Mask old tool outputs instead</summary>
      {open && <MaskingBody {...props} />}
    </details>
  );
}

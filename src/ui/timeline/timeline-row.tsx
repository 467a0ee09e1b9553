/** One timeline row: kind, excerpt, time, tokens and running total; expands to the full content. */
import { memo } from "react";
import type { CompactionSummaryFacts } from "../../core/compaction/compaction-record.ts";
import { isMasked } from "../../core/compaction/mask-marker.ts";
import type { ContextEditEntry, SessionEntry } from "../../core/session/types.ts";
import { ErrorBoundary } from "../common/error-boundary.tsx";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";
import { formatCount, formatEntryTime, formatTokens } from "../format.ts";
import { TreeRowActions } from "../tree/row-actions.tsx";
import { CompactionFacts } from "./compaction-facts.tsx";
import { EntryContent } from "./entry-content.tsx";
import { contentText, describeEntry } from "./entry-kind.ts";

export interface TimelineRowProps {
  entry: SessionEntry;
  /** Shown from its outline: its text is still being read (the kind, time and tokens are true). */
  pending: boolean;
  index: number;
  tokens: number;
  /** Running total; NaN while only the newest entries are loaded. */
  total: number;
  inContext: boolean;
  /** The latest context edit of this entry, when one applies: the model sees its replacement, or nothing. */
  edit: ContextEditEntry | undefined;
  expanded: boolean;
  label: string | undefined;
  /** For a compaction: the first kept entry (to link to), if on the path. */
  keptFrom: { index: number; excerpt: string } | undefined;
  /** For a compaction: its record (trigger, tokens before → after, model, coverage). */
  facts: CompactionSummaryFacts | undefined;
  flash: boolean;
  /** Whether the hover/focus toolbar is mounted (the row the pointer or focus was last on). */
  toolbar: boolean;
  /** The pointer or focus came onto the row. */
  onActivate: (entryId: string) => void;
  onToggle: (entryId: string) => void;
  onJump: (index: number) => void;
}

export const TimelineRow = memo(function TimelineRow(props: TimelineRowProps) {
  const { entry, pending, tokens, total, inContext, expanded, label, keptFrom, flash, edit } = props;
  const omitted = edit !== undefined && edit.replacement === null;
  const d = describeEntry(entry);
  const detailId = `entry-detail-${entry.id}`;
  const isCompaction = entry.type === "compaction";
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only mount the toolbar; the row's controls are buttons
    <div
      className="row-body"
      data-kind={d.kind}
      onMouseEnter={() => props.onActivate(entry.id)}
      onFocus={() => props.onActivate(entry.id)}
    >
      <button
        type="button"
        className="row-head"
        aria-expanded={expanded}
        aria-controls={expanded ? detailId : undefined}
        data-entry-id={entry.id}
        onClick={() => props.onToggle(entry.id)}
        title={
          inContext
            ? undefined
            : omitted
              ? "Not in context: a context edit omits it (the original stays in the file)"
              : "Not in context: summarized by a compaction, or folded into its system checkpoint"
        }
      >
        <span className="row-icon" aria-hidden="true">
          {d.icon}
        </span>
        <span className="row-main">
          <span className="row-kind">
            <SafeText text={d.label} />
          </span>
          {label && (
            <span className="row-label" title={markInvisible(label)}>
              ⚑ <SafeText text={label} />
            </span>
          )}
          {edit && (
            <span className="row-edit" data-testid="row-edit">
              {omitted
                ? "omitted for the model"
                : isMasked(edit.replacement?.content)
                  ? "masked for the model"
                  : "edited for the model"}
            </span>
          )}
          {pending ? (
            <span className="row-excerpt row-pending" data-testid="row-pending">
              reading its text…
            </span>
          ) : (
            <SafeText className="row-excerpt" text={d.excerpt} />
          )}
          {!inContext && <span className="sr-only">(not in context)</span>}
        </span>
        <span className="row-right">
          <span className="row-time">{formatEntryTime(entry.timestamp)}</span>
          <span className="row-tokens" title={`${formatCount(tokens)} estimated tokens`}>
            {tokens > 0 ? `${formatTokens(tokens)} tok` : ""}
          </span>
          {Number.isNaN(total) ? null : (
            <span className="row-total" title={`running total ${formatCount(total)} tokens`}>
              Σ {formatTokens(total)}
            </span>
          )}
        </span>
      </button>
      <TreeRowActions entry={entry} toolbar={props.toolbar} />
      {isCompaction && (
        <div className="compaction-note">
          <span>Earlier conversation compacted</span>
          {props.facts && <CompactionFacts facts={props.facts} />}
          {keptFrom ? (
            <button type="button" className="link" onClick={() => props.onJump(keptFrom.index)}>
              kept from “<SafeText text={keptFrom.excerpt} />” ↑
            </button>
          ) : (
            <span>keeps nothing before it</span>
          )}
        </div>
      )}
      {expanded && (
        <div id={detailId}>
          {edit && <EditNote edit={edit} />}
          {pending ? (
            <div className="row-detail">
              <p className="row-pending">This entry's text is still being read…</p>
            </div>
          ) : (
            <ErrorBoundary name="this entry's content" inline>
              <EntryContent entry={entry} />
            </ErrorBoundary>
          )}
        </div>
      )}
      {flash && <span className="sr-only">Jumped here</span>}
    </div>
  );
});

/** What a context edit does to the entry: the model sees the replacement (shown as text), or nothing. */
function EditNote({ edit }: { edit: ContextEditEntry }) {
  if (edit.replacement === null)
    return (
      <p className="edit-note" data-testid="edit-note">
        A context edit (entry {edit.id}) omits this entry from what the model sees. The original, below, stays
        in the file.
      </p>
    );
  return (
    <div className="edit-note" data-testid="edit-note">
      <p>A context edit (entry {edit.id}) replaces its content for the model with:</p>
      <pre className="edit-replacement">
        <SafeText text={contentText(edit.replacement.content)} />
      </pre>
      <p>The original, as stored:</p>
    </div>
  );
}

/**
 * A setting that makes compaction impossible or pointless on this model, said where it matters:
 * next to the field in Settings (`FitProblems`) and on the meter (`MeterFitWarning`, with a button
 * that opens Settings), each with its fix.
 */
import type { FitProblem, FitSetting } from "../../core/compaction/model-fit.ts";
import { useUiStore } from "../../store/ui-store.ts";

/** The problems about `settings`, one line each: what happens, then the fix. */
export function FitProblems({
  problems,
  settings,
  testId,
}: {
  problems: readonly FitProblem[];
  settings: readonly FitSetting[];
  testId: string;
}) {
  const shown = problems.filter((p) => settings.includes(p.setting));
  if (shown.length === 0) return null;
  return (
    <div className="cp-fit-problems" data-testid={testId}>
      {shown.map((p) => (
        <p key={p.setting} className="cp-fit-problem" role="note">
          {p.message} <b>Fix:</b> {p.fix}
        </p>
      ))}
    </div>
  );
}

/** On the meter: "Settings do not fit this model", the problems in its title, Settings one click away. */
export function MeterFitWarning({ problems }: { problems: readonly FitProblem[] }) {
  const openSettings = useUiStore((s) => s.setSettingsOpen);
  // An output limit above the window is already clamped per request: said in Settings, not on the meter.
  const shown = problems.filter((p) => p.setting !== "output");
  if (shown.length === 0) return null;
  const title = shown.map((p) => `${p.message} Fix: ${p.fix}`).join("\n");
  return (
    <button
      type="button"
      className="btn small cp-fit-warning"
      data-testid="meter-fit-warning"
      title={title}
      aria-label={`Settings do not fit this model. ${title}`}
      onClick={() => openSettings(true)}
    >
      ⚠ Settings do not fit this model
    </button>
  );
}

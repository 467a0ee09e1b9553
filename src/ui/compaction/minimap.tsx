/**
 * The minimap: the whole path's token mass as a canvas strip, one pixel row per slice of entries,
 * its width the slice's tokens, its colour the slice's band (outside / summarized / prefix / kept).
 * Click (or Enter on a focused point) jumps the timeline there. O(height) per paint.
 */
import { useEffect, useRef } from "react";
import type { Band } from "./timeline-bands.ts";
import type { CompactionModel } from "./use-compaction-model.ts";

const WIDTH = 36;

function bandAt(i: number, m: CompactionModel): Band {
  const p = m.plan.plan;
  if (i < m.windowStart) return "outside";
  if (!p) return "context";
  const b = p.bands;
  if (i >= b.summarized.start && i < b.summarized.end) return "summarized";
  if (b.prefix && i >= b.prefix.start && i < b.prefix.end) return "prefix";
  if (i >= b.kept.start) return "kept";
  return "context";
}

const VAR: Record<Band, string> = {
  outside: "--cp-outside",
  summarized: "--cp-summarized",
  prefix: "--cp-prefix",
  kept: "--cp-kept",
  summary: "--cp-summary",
  context: "--cp-context",
};

/** Token mass per pixel row (depends only on the path and the height): cached across cut moves. */
function masses(m: CompactionModel, height: number): { mass: Float64Array; max: number } {
  const n = m.path.length;
  const run = (i: number) => (i < 0 ? 0 : m.planner.runningTokens(i));
  const mass = new Float64Array(height);
  let max = 1;
  for (let y = 0; y < height; y++) {
    const a = Math.floor((y * n) / height);
    const b = Math.max(a + 1, Math.floor(((y + 1) * n) / height));
    mass[y] = run(b - 1) - run(a - 1);
    if (mass[y]! > max) max = mass[y]!;
  }
  return { mass, max };
}

export function Minimap({ model, onJump }: { model: CompactionModel; onJump: (index: number) => void }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cache = useRef<{ key: string; mass: Float64Array; max: number } | null>(null);
  const n = model.path.length;
  useEffect(() => {
    // Drawn after the frame that moved the cut, so moving the cut never waits for the minimap.
    const draw = () => {
      const canvas = ref.current;
      if (!canvas || n === 0) return;
      const height = Math.max(50, Math.round(canvas.getBoundingClientRect().height) || 300);
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== WIDTH * dpr || canvas.height !== height * dpr) {
        canvas.width = WIDTH * dpr;
        canvas.height = height * dpr;
      }
      const ctx = canvas.getContext("2d");
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, WIDTH, height);
      const key = `${model.version}:${height}`;
      if (cache.current?.key !== key) cache.current = { key, ...masses(model, height) };
      const { mass, max } = cache.current;
      const style = getComputedStyle(canvas);
      const colours = {} as Record<Band, string>;
      for (const b of Object.keys(VAR) as Band[])
        colours[b] = style.getPropertyValue(VAR[b]).trim() || "#888";
      for (let y = 0; y < height; y++) {
        const a = Math.floor((y * n) / height);
        ctx.fillStyle = colours[bandAt(Math.min(a, n - 1), model)];
        ctx.fillRect(2, y, Math.max(1, (mass[y]! / max) * (WIDTH - 4)), 1);
      }
      const cut = model.plan.plan?.firstKeptIndex;
      if (cut !== undefined) {
        ctx.fillStyle = style.getPropertyValue("--fg").trim() || "#000";
        ctx.fillRect(0, Math.floor((cut / n) * height), WIDTH, 2);
      }
    };
    const t = window.setTimeout(draw, 30);
    return () => window.clearTimeout(t);
  }, [model, n]);
  return (
    <canvas
      ref={ref}
      className="cp-minimap"
      data-testid="minimap"
      aria-label="Minimap of the session's tokens; click to jump"
      title="Minimap: click to jump"
      width={WIDTH}
      onClick={(e) => {
        const r = e.currentTarget.getBoundingClientRect();
        onJump(Math.max(0, Math.min(n - 1, Math.floor(((e.clientY - r.top) / r.height) * n))));
      }}
    />
  );
}

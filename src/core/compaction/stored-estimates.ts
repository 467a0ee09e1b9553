/**
 * Token estimates kept with a session's stored chunks, so that opening it again gives pi's
 * chars/4 estimator the counts it made before instead of counting every message again (~100 ms of
 * a 100 MB session's reopen, e2e/bench/storage.bench.ts). One number per entry of a chunk, in
 * order: its own message's estimate (`ownMessage`), or NO_MESSAGE. Pure.
 *
 * A stored count is only ever a cache of what `estimateMessageTokensPi` gives for the same line:
 * - STORED_ESTIMATE_RULE names the rule; counts stored under another rule are not used (change it
 *   with the rule: stored-estimates.test.ts pins the fixtures' counts to it);
 * - before seeding a run of entries, its first message is counted for real and compared;
 *   a mismatch seeds nothing, and the messages are counted as if nothing were stored.
 */
import { ownMessage } from "../session/projection.ts";
import type { SessionEntry } from "../session/types.ts";
import { estimateMessageTokensPi, PI_ESTIMATOR, type SeedableEstimator } from "./tokens.ts";

/** The rule the stored counts were made with (pi's chars/4, IMAGE_CHARS per image). */
export const STORED_ESTIMATE_RULE = "pi-chars4/1";

/** Stored for an entry without a message of its own. */
export const NO_MESSAGE = 0xffffffff;

/** The stored counts of `entries[from .. from + count)` (counted by `estimator`, cached there). */
export function chunkEstimates(
  entries: readonly SessionEntry[],
  from: number,
  count: number,
  estimator: SeedableEstimator = PI_ESTIMATOR,
): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const message = ownMessage(entries[from + i]!);
    out[i] = message ? estimator.estimateMessage(message) : NO_MESSAGE;
  }
  return out;
}

/**
 * Gives `estimator` the stored counts of `entries[from .. to)`, whose first is entry `offset` of
 * the stored chunk. False, seeding nothing, when `tokens` does not match them: too short, a
 * message where none was stored (or none where one was), or a first message whose real count
 * differs.
 */
export function seedEstimates(
  entries: readonly SessionEntry[],
  from: number,
  to: number,
  tokens: Uint32Array,
  offset: number,
  estimator: SeedableEstimator = PI_ESTIMATOR,
): boolean {
  if (offset < 0 || offset + (to - from) > tokens.length) return false;
  let checked = false;
  for (let i = from; i < to; i++) {
    const message = ownMessage(entries[i]!);
    const stored = tokens[offset + i - from]!;
    if ((message === undefined) !== (stored === NO_MESSAGE)) return false;
    if (message && !checked) {
      if (estimateMessageTokensPi(message) !== stored) return false;
      checked = true;
    }
  }
  for (let i = from; i < to; i++) {
    const message = ownMessage(entries[i]!);
    if (message) estimator.seed(message, tokens[offset + i - from]!);
  }
  return true;
}

/**
 * Gives `estimator` the stored counts of outlined entries (core/session/outline.ts)
 * `entries[from .. from + tokens.length)`: their messages have no bodies to count, so a count is
 * checked when the body comes (`checkFilled`); an entry kept whole is counted for real. False,
 * seeding nothing, when the outline and the counts do not line up (a message where none was
 * stored, or none where one was; a whole message whose real count differs).
 */
export function seedOutline(
  entries: readonly SessionEntry[],
  from: number,
  tokens: Uint32Array,
  bodiless: ReadonlySet<number>,
  estimator: SeedableEstimator = PI_ESTIMATOR,
): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const message = ownMessage(entries[from + i]!);
    if ((message === undefined) !== (tokens[i] === NO_MESSAGE)) return false;
    if (message && !bodiless.has(i) && estimateMessageTokensPi(message) !== tokens[i]) return false;
  }
  for (let i = 0; i < tokens.length; i++) {
    const message = ownMessage(entries[from + i]!);
    if (message) estimator.seed(message, tokens[i]!);
  }
  return true;
}

/**
 * An outlined entry's body has come: true when `count` (its stored count) is its real one
 * (`check`: counted for real, for the first body of each chunk as `seedEstimates` does), and the
 * full message is then seeded with it.
 */
export function seedFilled(
  entry: SessionEntry,
  count: number,
  check: boolean,
  estimator: SeedableEstimator = PI_ESTIMATOR,
): boolean {
  const message = ownMessage(entry);
  if (!message) return count === NO_MESSAGE;
  if (check && estimateMessageTokensPi(message) !== count) return false;
  estimator.seed(message, count);
  return true;
}

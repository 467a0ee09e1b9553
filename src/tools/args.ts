/** Argument checks for tools: the model sends loose JSON; each failure is a clear sentence. */

export type ArgResult<T> = { ok: true; value: T } | { ok: false; error: string };

export function stringArg(args: Record<string, unknown>, name: string, required: true): ArgResult<string>;
export function stringArg(
  args: Record<string, unknown>,
  name: string,
  required: false,
): ArgResult<string | undefined>;
export function stringArg(
  args: Record<string, unknown>,
  name: string,
  required: boolean,
): ArgResult<string | undefined> {
  const v = args[name];
  if (v === undefined || v === null) {
    return required
      ? { ok: false, error: `Missing required argument "${name}" (string).` }
      : { ok: true, value: undefined };
  }
  if (typeof v !== "string")
    return { ok: false, error: `Argument "${name}" must be a string, got ${typeof v}.` };
  return { ok: true, value: v };
}

export function intArg(
  args: Record<string, unknown>,
  name: string,
  min: number,
): ArgResult<number | undefined> {
  const v = args[name];
  if (v === undefined || v === null) return { ok: true, value: undefined };
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) {
    return { ok: false, error: `Argument "${name}" must be an integer.` };
  }
  if (n < min) return { ok: false, error: `Argument "${name}" must be at least ${min}.` };
  return { ok: true, value: n };
}

export function boolArg(args: Record<string, unknown>, name: string): ArgResult<boolean | undefined> {
  const v = args[name];
  if (v === undefined || v === null) return { ok: true, value: undefined };
  if (typeof v === "boolean") return { ok: true, value: v };
  if (v === "true" || v === "false") return { ok: true, value: v === "true" };
  return { ok: false, error: `Argument "${name}" must be true or false.` };
}

/** Paths of the shared pi fixtures (read at test time, never copied into the project). */
import { resolve } from "node:path";

export const PI_FIXTURE = resolve(
  import.meta.dirname,
  "../../../../shared/fixtures/pi/before-compaction.jsonl",
);

/** A linear session for the branch tests (not part of the public API): the middle reply edits a file. */
import { assistant, msg, user } from "../core/session/test-builders.ts";
import type { SessionEntry } from "../core/session/types.ts";

const edit = (path: string) =>
  ({
    ...assistant(""),
    content: [{ type: "toolCall", id: "c1", name: "edit", arguments: { path, oldText: "a", newText: "b" } }],
  }) as ReturnType<typeof assistant>;

/** u1 -> a1 -> u2 -> a2 (edits src/parse.test.ts) -> u3 -> a3 (the leaf). */
export const linear: SessionEntry[] = [
  msg("u1", null, user("build the parser")),
  msg("a1", "u1", assistant("done")),
  msg("u2", "a1", user("now add tests")),
  msg("a2", "u2", edit("src/parse.test.ts")),
  msg("u3", "a2", user("and docs")),
  msg("a3", "u3", assistant("docs written")),
];

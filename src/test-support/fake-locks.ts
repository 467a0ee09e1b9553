/** For service tests: Web Locks shared by the simulated tabs of one browser (exclusive, ifAvailable), with what is held. */
import type { LockManagerLike, LockQuery } from "../services/agent/session-run.ts";

export function fakeLocks(): { locks: LockManagerLike; query: LockQuery } {
  const held = new Set<string>();
  const locks: LockManagerLike = {
    async request(name, _options, callback) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({});
      } finally {
        held.delete(name);
      }
    },
  };
  return { locks, query: async () => ({ held: [...held].map((name) => ({ name })) }) };
}

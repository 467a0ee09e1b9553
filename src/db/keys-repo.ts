/**
 * Stored API keys: rows of the `apiKeys` table (modes "device" and "passphrase") and, for mode
 * "tab", one sessionStorage item of this tab (gone when the tab closes). No rule about where a key
 * may be sent lives here: the rows only carry their origins (services/keys/key-vault.ts decides).
 */
import { ok, type Result, toDbError } from "./result.ts";
import type { ApiKeyRow, CutpointDb } from "./schema.ts";

/** The sessionStorage item of mode-"tab" keys (a JSON array of ApiKeyRow). */
export const TAB_KEYS_ITEM = "cutpoint.apiKeys";

export interface KeyStores {
  db: CutpointDb;
  /** This tab's sessionStorage (undefined outside a browser: mode "tab" then keeps nothing). */
  tab: Storage | undefined;
}

function readTab(tab: Storage | undefined): ApiKeyRow[] {
  if (!tab) return [];
  try {
    const parsed: unknown = JSON.parse(tab.getItem(TAB_KEYS_ITEM) ?? "[]");
    return Array.isArray(parsed)
      ? parsed.filter(
          (r): r is ApiKeyRow =>
            !!r && typeof r === "object" && typeof r.id === "string" && Array.isArray(r.origins),
        )
      : [];
  } catch {
    return [];
  }
}

function writeTab(tab: Storage | undefined, rows: ApiKeyRow[]): void {
  if (!tab) return;
  if (rows.length === 0) tab.removeItem(TAB_KEYS_ITEM);
  else tab.setItem(TAB_KEYS_ITEM, JSON.stringify(rows));
}

/** Every stored key of this tab and this device, oldest first. */
export async function listKeyRows(stores: KeyStores): Promise<ApiKeyRow[]> {
  const rows = [...(await stores.db.apiKeys.toArray()), ...readTab(stores.tab)];
  return rows.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

export async function getKeyRow(stores: KeyStores, id: string): Promise<ApiKeyRow | undefined> {
  return (await stores.db.apiKeys.get(id)) ?? readTab(stores.tab).find((r) => r.id === id);
}

/** Writes a key where its mode keeps it (and nowhere else). */
export async function putKeyRow(stores: KeyStores, row: ApiKeyRow): Promise<Result<void>> {
  try {
    const others = readTab(stores.tab).filter((r) => r.id !== row.id);
    if (row.mode === "tab") {
      await stores.db.apiKeys.delete(row.id);
      writeTab(stores.tab, [...others, row]);
    } else {
      await stores.db.apiKeys.put(row);
      writeTab(stores.tab, others);
    }
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

export async function deleteKeyRow(stores: KeyStores, id: string): Promise<Result<void>> {
  try {
    await stores.db.apiKeys.delete(id);
    writeTab(
      stores.tab,
      readTab(stores.tab).filter((r) => r.id !== id),
    );
    return ok(undefined);
  } catch (e) {
    return toDbError(e);
  }
}

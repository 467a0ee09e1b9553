/**
 * Mounts the shell's own status into the session view (imported once by src/main.tsx, before the
 * features, so that it comes first in its slots): the offline chip in the top bar, the offline
 * line above the composer.
 */
import { OfflineComposerNotice, OfflineNotice } from "./app-status.tsx";
import { registerSlot } from "./slots.ts";

registerSlot("topBar", OfflineNotice, "offline-notice");
registerSlot("composer", OfflineComposerNotice, "offline-composer-notice");

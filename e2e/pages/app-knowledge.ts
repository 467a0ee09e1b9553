/** What the e2e drivers know of the app's screens (texts, test ids, fixtures), shared by Playwright and the engine runner. */
import { resolve } from "node:path";

/** Imports parse and store a whole session: allow for a busy machine. */
export const IMPORT_TIMEOUT = 30_000;

/** The example session's title (public/examples/example-session.jsonl). */
export const EXAMPLE_TITLE = "tally: --json flag and exact cents";

/** The real pi session every engine imports, and what the session list then shows of it. */
export const PI_FIXTURE = resolve(import.meta.dirname, "../../../shared/fixtures/pi/before-compaction.jsonl");
export const PI_FIXTURE_FIRST_USER = "alright, read @packages/coding-agent";
export const PI_FIXTURE_ENTRIES = "1,002";

/** The models the mock server lists for the agent specs' keys. */
export const MOCK_MODELS = ["mock-model", "mock-reasoner", "gpt-4o-mini"];

/** The test ids the drivers wait on and click. */
export const TID = {
  sessionTitle: "session-title",
  importInput: "import-input",
  entryCount: "entry-count",
  pathCount: "path-count",
  toast: "toast",
  contextMeter: "context-meter",
  tokenTimelinePanel: "token-timeline-panel",
  cutHandle: "cut-handle",
  compactOpen: "compact-open",
  compactionPreview: "compaction-preview",
  previewNumbers: "preview-numbers",
  previewStatus: "preview-status",
  offline: "offline",
  summaryEditor: "summary-editor",
  confirm: "confirm",
  composer: "agent-composer",
  agentStarting: "agent-starting",
  agentRun: "agent-run",
  toolCall: "tool-call",
  toolResult: "tool-result",
  workspacePanel: "workspace-panel",
  fileContent: "file-content",
  apiKeyDisplay: "api-key-display",
  modelsStatus: "models-status",
} as const;

/** A CSS selector for a test id. */
export function tid(id: string): string {
  return `[data-testid="${id}"]`;
}

/** Buttons, dialogs and fields by the words a person sees. */
export const UI = {
  welcomeOrList: ".welcome, .session-item",
  sessionItem: ".session-item",
  sessionOpen: ".session-open",
  openExample: "Open the example session",
  showSessionList: "Show the session list",
  newSession: "+ New",
  export: "Export",
  settings: "Settings",
  settingsDialog: 'dialog[data-dialog="settings"]',
  provider: "Provider",
  baseUrl: "Base URL",
  apiKey: "API key",
  saveKey: "Save key",
  defaultModel: "Default model",
  done: "Done",
  message: "Message",
  files: "Files",
  undo: "Undo",
  compactedToast: "Compacted",
} as const;

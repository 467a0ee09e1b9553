/** What the engine runner needs of a browser, whatever WebDriver client drives it. */

export type EngineName = "firefox" | "webkit" | "chromium";

/** The keys the main path presses. */
export type KeyName = "Enter" | "ArrowUp" | "ArrowDown" | "Escape" | "Tab";

/**
 * One browser window driven by its WebDriver client. Element arguments are page scripts that
 * evaluate to the element (or null when it is not there): see page-scripts.ts.
 */
export interface EngineDriver {
  readonly engine: EngineName;
  /** The browser's version, as it reports it. */
  readonly version: string;
  /** The folder where the browser saves downloads. */
  readonly downloads: string;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Evaluates an expression in the page (a promise is awaited); the value comes back as JSON. */
  evaluate<T>(script: string): Promise<T>;
  /** Clicks the element as a pointer would; false when the script found none. */
  click(element: string): Promise<boolean>;
  /** Types into the element as a keyboard would, replacing what it holds; false when there is none. */
  type(element: string, text: string): Promise<boolean>;
  /** Presses a key in the focused element. */
  press(key: KeyName): Promise<void>;
  /** Picks a file in a file input; false when there is none. */
  setFile(element: string, path: string): Promise<boolean>;
  /** Saves a PNG of the page (to see why a step failed). */
  screenshot(path: string): Promise<void>;
  /** Closes the browser and everything started for it. */
  close(): Promise<void>;
}

/** How a runner starts a driver. */
export interface LaunchOptions {
  /** A folder of its own for this run (profile, downloads). */
  dir: string;
  width: number;
  height: number;
}

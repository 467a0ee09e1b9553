/**
 * Scripts the engine runner evaluates in the page, written once for every WebDriver client: find an
 * element as a person names it, and wait (in the page) until the app shows a state.
 */

/** An element as a person finds it: a CSS selector narrowed by its name, its label or a scope. */
export interface Target {
  css: string;
  /** Its accessible name (aria-label, else its text), equal after trimming, or contained with `partial`. */
  name?: string;
  partial?: boolean;
  /** A form control whose label's text starts with this. */
  label?: string;
  /** The CSS selector of an ancestor to look in (the first shown match, with `withinText` if given). */
  within?: string;
  withinText?: string;
  /** Also matches an element that is not shown (a file input). */
  hidden?: boolean;
}

/** Finds a target in the page (runs in the page: it must not refer to anything outside itself). */
export type Find = (t: Target) => Element | null;

/**
 * A condition checked in the page: `true` once the app shows the state, else a few words saying
 * what it shows instead (printed when the wait times out).
 */
export type Condition<A> = (arg: A, find: Find) => true | string;

export function findInPage(t: Target): Element | null {
  const norm = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  let scope: ParentNode = document;
  if (t.within !== undefined) {
    const s = [...document.querySelectorAll(t.within)].find(
      (el) => shown(el) && (t.withinText === undefined || norm(el.textContent).includes(t.withinText)),
    );
    if (!s) return null;
    scope = s;
  }
  let els = [...scope.querySelectorAll(t.css)];
  const label = t.label;
  if (label !== undefined) {
    els = els.filter((el) => {
      const labels = (el as HTMLInputElement).labels;
      const named = labels ? [...labels].some((l) => norm(l.textContent).startsWith(label)) : false;
      return named || norm(el.getAttribute("aria-label")).startsWith(label);
    });
  }
  const name = t.name;
  if (name !== undefined) {
    els = els.filter((el) => {
      const own = norm(el.getAttribute("aria-label") ?? el.textContent);
      return t.partial ? own.includes(name) : own === name;
    });
  }
  if (!t.hidden) els = els.filter(shown);
  return els[0] ?? null;
}

/** The script (an expression) that calls `fn(...args)` in the page. */
export function callScript(fn: (...args: never[]) => unknown, ...args: unknown[]): string {
  // tsx (esbuild) wraps named inner functions in `__name(…)`: give the page a stand-in.
  const list = args.map((a) => JSON.stringify(a)).join(", ");
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${list}); })()`;
}

/** The script (an expression) for an element handle of a target. */
export function findScript(t: Target): string {
  return callScript(findInPage, t);
}

/**
 * Waits in the page until `check` holds (runs in the page: it refers to nothing outside itself).
 * An error the app reports meanwhile (a new error toast) ends the wait at once.
 */
function waitInPage<A>(check: Condition<A>, find: Find, arg: A, timeout: number): Promise<true | string> {
  const errors = () =>
    [...document.querySelectorAll('[data-testid="toast"][data-kind="error"]')]
      .map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim())
      .filter((t) => t !== "");
  const before = new Set(errors());
  return new Promise((done) => {
    let last: true | string = "not checked yet";
    /** Whether the wait is over (the condition holds, or the app said it failed). */
    const test = () => {
      try {
        last = check(arg, find);
      } catch (e) {
        last = `the check threw: ${String(e)}`;
      }
      if (last === true) return true;
      const fresh = errors().filter((t) => !before.has(t));
      if (fresh.length === 0) return false;
      last = `${last}; the app says: ${fresh.join(" | ").slice(0, 400)}`;
      return true;
    };
    if (test()) {
      done(last);
      return;
    }
    const finish = () => {
      observer.disconnect();
      clearInterval(timer);
      clearTimeout(limit);
      done(last);
    };
    const observer = new MutationObserver(() => {
      if (test()) finish();
    });
    const timer = setInterval(() => {
      if (test()) finish();
    }, 100);
    const limit = setTimeout(() => {
      test();
      finish();
    }, timeout);
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

/**
 * The script (an expression, a promise) that waits in the page until `cond` holds, checking it on
 * every change of the page and every 100 ms, for at most `timeoutMs`: it resolves to `true` or to
 * the last thing the condition said. The functions go in as source (no eval: the page has a CSP).
 */
export function waitScript<A>(cond: Condition<A>, arg: A, timeoutMs: number): string {
  return `(() => { const __name = (f) => f; return (${waitInPage.toString()})((${cond.toString()}), (${findInPage.toString()}), ${JSON.stringify(arg)}, ${timeoutMs}); })()`;
}

/** The script (an expression) that runs `fn` on the target's element (null when it is not there). */
export function elementScript<A, R>(t: Target, fn: (el: Element | null, arg: A) => R, arg: A): string {
  return `(() => { const __name = (f) => f; const el = (${findInPage.toString()})(${JSON.stringify(t)}); return (${fn.toString()})(el, ${JSON.stringify(arg)}); })()`;
}

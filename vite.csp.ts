/**
 * The dev server's Content-Security-Policy. index.html holds the production policy; Vite's dev
 * server needs an inline script (React Refresh's preamble), inline <style> elements (CSS modules
 * are injected by JS) and a WebSocket (HMR), so for `vite` (serve) only, this plugin adds those
 * three to the same policy. `vite build` and `vite preview` serve index.html's policy unchanged.
 */
import type { Plugin } from "vite";

const CSP_META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/;

/** The policy with the dev server's additions. */
export function devPolicy(policy: string): string {
  return policy
    .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", "connect-src 'self' ws: wss:");
}

export function devCspPlugin(): Plugin {
  return {
    name: "cutpoint-dev-csp",
    apply: "serve",
    transformIndexHtml: {
      order: "pre",
      handler(html) {
        if (!CSP_META.test(html)) throw new Error("index.html has no Content-Security-Policy meta tag");
        return html.replace(
          CSP_META,
          (_m, head: string, policy: string, tail: string) => head + devPolicy(policy) + tail,
        );
      },
    },
  };
}

/** The Content-Security-Policy of index.html, and the dev server's additions (vite.csp.ts). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { devCspPlugin, devPolicy } from "../vite.csp.ts";

const html = readFileSync(resolve(import.meta.dirname, "../index.html"), "utf8");
const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1] ?? "";

function directives(p: string): Map<string, string[]> {
  return new Map(
    p
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("index.html's policy", () => {
  const d = directives(policy);

  it("comes before any script or style sheet of the page", () => {
    const at = html.indexOf("Content-Security-Policy");
    expect(at).toBeGreaterThan(0);
    for (const tag of ["<script", "<link"]) expect(html.indexOf(tag)).toBeGreaterThan(at);
  });

  it("loads scripts, styles and fonts only from the app, and no remote image, medium, frame or object", () => {
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("script-src")).toEqual(["'self'"]);
    expect(d.get("style-src")).toEqual(["'self'"]);
    expect(d.get("font-src")).toEqual(["'self'"]);
    expect(d.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    for (const name of ["media-src", "object-src", "frame-src", "base-uri", "form-action"])
      expect(d.get(name), name).toEqual(["'none'"]);
    expect(d.get("worker-src")).toEqual(["'self'", "blob:"]);
  });

  it("uses only directives that Chromium, Firefox and WebKit all know (WebKit logs an error for manifest-src)", () => {
    const everyEngine = new Set([
      "default-src",
      "script-src",
      "style-src",
      "img-src",
      "font-src",
      "media-src",
      "object-src",
      "frame-src",
      "worker-src",
      "connect-src",
      "base-uri",
      "form-action",
    ]);
    for (const name of d.keys()) expect(everyEngine.has(name), name).toBe(true);
    // The web app manifest falls under default-src 'self' instead.
    expect(d.has("manifest-src")).toBe(false);
  });

  it("lets the app reach any http(s) model endpoint the person types", () => {
    expect(d.get("connect-src")).toEqual(["'self'", "https:", "http:"]);
  });
});

describe("the dev server's policy", () => {
  it("adds only inline scripts and styles (React Refresh, Vite's CSS) and WebSockets (HMR)", () => {
    const dev = directives(devPolicy(policy));
    const prod = directives(policy);
    expect(dev.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(dev.get("connect-src")).toEqual(["'self'", "ws:", "wss:", "https:", "http:"]);
    for (const [name, sources] of prod) {
      if (!["script-src", "style-src", "connect-src"].includes(name))
        expect(dev.get(name), name).toEqual(sources);
    }
  });

  it("is applied by the plugin when serving only", () => {
    const plugin = devCspPlugin();
    expect(plugin.apply).toBe("serve");
    const hook = plugin.transformIndexHtml as { handler: (html: string) => string };
    expect(hook.handler(html)).toContain(devPolicy(policy));
    expect(() => hook.handler("<html></html>")).toThrow(/no Content-Security-Policy/);
  });
});

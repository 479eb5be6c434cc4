/**
 * The sidecar's read API over HTTP (an ephemeral loopback port) on the shared build of the sample
 * data, and the checks the api-*.test.ts files share. Property runs use FC_SEED (default below).
 */

import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { ErrorResponseSchema } from "@riverbend/shared/schemas/errors.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { pino } from "pino";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { listen } from "./http.ts";
import { ROOT } from "./run-build.ts";

export const SEED = Number(process.env.FC_SEED ?? 20261101);
export const SITE = "https://reviews.test";
export const silent = pino({ level: "silent" });

export type Server = { base: string; close: () => Promise<void> };

// Live bindings: set by useApiServer() before the file's tests run.
export let store: BundleStore;
export let server: Server;
export let reviewCount: number;

/** Serves the shared build (static documents too) for the tests of the calling file. */
export function useApiServer(): void {
  beforeAll(async () => {
    store = new BundleStore(inject("sampleDist"), silent);
    reviewCount = store.current.index.count;
    server = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store, logger: silent }));
  });
  afterAll(() => server.close());
}

/** Every review of the served build, newest first, as the index holds them. */
export const servedReviews = (): Review[] =>
  Array.from({ length: store.current.index.count }, (_, position) => store.current.index.review(position));

export const get = (url: string, headers: Record<string, string> = {}, base = server.base) =>
  fetch(`${base}${url}`, { headers, redirect: "manual" });

/** No stack frame, internal module, source file or checkout path in anything a client can read. */
export function expectNoLeak(text: string, label = ""): void {
  expect(text, label).not.toMatch(/^\s+at /m);
  expect(text, label).not.toMatch(/\bat [\w.$<>[\] ]+ \(/);
  expect(text, label).not.toMatch(/node:internal|node_modules/);
  expect(text, label).not.toContain("/work/");
  expect(text, label).not.toContain(ROOT);
  expect(text, label).not.toMatch(/\.ts:\d|\.ts\)/);
  expect(text, label).not.toMatch(/\b(TypeError|ReferenceError|RangeError|SyntaxError|URIError)\b/);
}

/** A 400 in the documented shape; returns the parameter paths it names. */
export async function expectInvalidRequest(response: Response): Promise<string[]> {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const text = await response.text();
  expectNoLeak(text);
  const body = JSON.parse(text);
  expect(ErrorResponseSchema.parse(body)).toEqual(body);
  expect(body.error).toBe("invalid_request");
  expect(body.message).toEqual(expect.any(String));
  expect(body.issues.length).toBeGreaterThan(0);
  for (const issue of body.issues) {
    expect(Object.keys(issue).sort()).toEqual(["code", "message", "path"]);
  }
  return body.issues.map((issue: { path: string }) => issue.path);
}

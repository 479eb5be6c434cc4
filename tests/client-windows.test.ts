/**
 * The synchronous rate-limit store (sidecar/src/http/rate-limit/client-windows.ts) on a clock of
 * its own: per-client fixed windows against a naive model for random request sequences, the two
 * generations that keep memory bounded, and the rest of express-rate-limit's Store contract. That
 * express-rate-limit's middleware and the synchronous `consume` give the same headers and 429s over
 * it is shown in tests/fast-path-mcp.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientWindows } from "../sidecar/src/http/rate-limit/client-windows.ts";

const WINDOW = 1000;

function windows() {
  let now = 1_000_000;
  const store = new ClientWindows(() => now);
  store.init({ windowMs: WINDOW });
  store.shutdown(); // no timer in these tests: rotation is called by hand
  return { store, advance: (ms: number) => (now += ms), now: () => now };
}

describe("client windows", () => {
  it("counts like a naive fixed window per client for any sequence of requests", () => {
    const step = fc.record({ key: fc.constantFrom("a", "b", "c"), wait: fc.integer({ min: 0, max: 700 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        const { store, advance, now } = windows();
        const model = new Map<string, { opened: number; hits: number }>();
        for (const { key, wait } of steps) {
          advance(wait);
          let client = model.get(key);
          if (!client || client.opened + WINDOW <= now()) {
            client = { opened: now(), hits: 0 };
            model.set(key, client);
          }
          client.hits += 1;
          const info = store.increment(key);
          expect(info.totalHits).toBe(client.hits);
          expect(info.resetTime?.getTime()).toBe(client.opened + WINDOW);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("forgets a client unseen for two rotations and keeps one seen in between", () => {
    const { store } = windows();
    store.increment("quiet");
    store.increment("busy");
    store.rotate();
    expect(store.increment("busy").totalHits).toBe(2);
    expect(store.size).toBe(2);
    store.rotate();
    expect(store.size).toBe(1);
    expect(store.get("quiet")).toBeUndefined();
    expect(store.get("busy")?.totalHits).toBe(2);
  });

  it("answers get, decrement, resetKey and resetAll as the Store contract asks", () => {
    const { store, advance } = windows();
    store.increment("a");
    store.increment("a");
    store.decrement("a");
    expect(store.get("a")?.totalHits).toBe(1);
    store.decrement("a");
    store.decrement("a");
    expect(store.get("a")?.totalHits).toBe(0);
    store.increment("b");
    store.resetKey("b");
    expect(store.get("b")).toBeUndefined();
    store.increment("c");
    advance(WINDOW);
    expect(store.get("c")).toBeUndefined();
    expect(store.increment("c").totalHits).toBe(1);
    store.resetAll();
    expect(store.size).toBe(0);
  });
});

/**
 * The hub's callback rules as pure functions (issue 20 findings 6 and 10): every character a URL
 * cannot contain as written is refused with its name and position, everything else passes the
 * character check; per-host limits key on the normalised host without port.
 */

import { callbackHost } from "@riverbend/shared/websub/callback-url.ts";
import { checkCallback, HubRequestError } from "@riverbend/shared/websub/hub-request.ts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs } from "./support/properties-arbitraries.ts";

const URL_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?[]@!$&'()*+,;=";
const urlText = fc.string({ unit: fc.constantFrom(...URL_CHARACTERS), maxLength: 40 });
const BASE = "https://callback.example/";

function refusal(callback: string): string | undefined {
  try {
    checkCallback(callback);
    return undefined;
  } catch (error) {
    if (!(error instanceof HubRequestError)) throw error;
    return error.message;
  }
}

describe("hub.callback characters", () => {
  it("accepts every callback made of URL characters and valid percent escapes", () => {
    const percentEscape = fc.nat(255).map((n) => `%${n.toString(16).padStart(2, "0")}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(urlText, percentEscape), { maxLength: 6 }), (parts) => {
        const path = parts.join("").replaceAll("#", "").replaceAll("?", "");
        expect(refusal(`${BASE}${path}`)).toBeUndefined();
      }),
      runs(500),
    );
  });

  it("refuses any other character with 400, naming where it is", () => {
    const bad = fc
      .string({ unit: "binary", minLength: 1, maxLength: 1 })
      .filter((c) => !URL_CHARACTERS.includes(c) && c !== "%" && c !== "#");
    fc.assert(
      fc.property(urlText, bad, urlText, (before, char, after) => {
        const callback = `${BASE}${before.replaceAll("#", "")}${char}${after}`;
        const message = refusal(callback);
        expect(message).toContain(`at position ${BASE.length + before.replaceAll("#", "").length + 1}`);
        expect(message).toMatch(/^hub\.callback contains .* a URL must percent-encode it \(RFC 3986\)$/);
      }),
      runs(500),
    );
  });

  it("refuses a % that does not start an escape", () => {
    for (const tail of ["%", "%4", "%zz", "%g1"]) {
      expect(refusal(`${BASE}x${tail}`)).toContain(`has a "%" at position ${BASE.length + 2}`);
    }
  });
});

describe("callbackHost", () => {
  it.each([
    ["https://Example.COM:8443/a", "example.com"],
    ["https://example.com./a", "example.com"],
    ["https://example.com/a", "example.com"],
    ["https://127.0.0.1:1/a", "127.0.0.1"],
    ["https://2130706433/a", "127.0.0.1"],
    ["https://[::ffff:127.0.0.1]:9/a", "127.0.0.1"],
    ["https://[2001:DB8:0:0::1]:443/a", "[2001:db8::1]"],
  ])("keys %s by %s", (callback, host) => {
    expect(callbackHost(callback)).toBe(host);
  });
});

import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { describe, expect, it } from "vitest";

function errorOf(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("configuration was accepted");
}

describe("configuration", () => {
  it("has loopback defaults", () => {
    expect(parseConfig({})).toMatchObject({
      PORT: 4321,
      HOST: "127.0.0.1",
      SITE_URL: "http://localhost:4321",
      DIST_DIR: "dist",
      DATA_DIR: "data",
      SERVE_STATIC: true,
      LOG_LEVEL: "info",
      RELOAD_INTERVAL_MS: 2000,
      STATE_DIR: "var",
      HUB_LEASE_DEFAULT_SECONDS: 864_000,
      HUB_ALLOWED_CIDRS: [],
      MCP_SESSION_TTL_SECONDS: 86_400,
    });
    expect(parseConfig({}).MCP_SESSION_SECRET).toBeUndefined();
    expect(parseConfig({}).HUB_PUBLISH_TOKEN).toBeUndefined();
  });

  it("checks hub settings: CIDR lists and lease bounds", () => {
    expect(parseConfig({ HUB_ALLOWED_CIDRS: "127.0.0.0/8, ::1/128" }).HUB_ALLOWED_CIDRS).toEqual([
      "127.0.0.0/8",
      "::1/128",
    ]);
    expect(errorOf({ HUB_ALLOWED_CIDRS: "localhost" })).toContain(
      'HUB_ALLOWED_CIDRS: must be a comma-separated list of CIDRs, e.g. 127.0.0.0/8; "localhost" is not one',
    );
    expect(errorOf({ HUB_LEASE_DEFAULT_SECONDS: "60" })).toContain(
      "HUB_LEASE_DEFAULT_SECONDS: must lie between HUB_LEASE_MIN_SECONDS (3600) and HUB_LEASE_MAX_SECONDS (2592000)",
    );
    expect(errorOf({ MCP_SESSION_SECRET: "short" })).toContain("MCP_SESSION_SECRET: must be at least 32 characters");
  });

  it("derives the default site URL from PORT and strips a trailing slash from SITE_URL", () => {
    expect(parseConfig({ PORT: "8080" }).SITE_URL).toBe("http://localhost:8080");
    expect(parseConfig({ SITE_URL: "https://reviews.example.com/" }).SITE_URL).toBe("https://reviews.example.com");
  });

  it("treats empty variables as unset and parses SERVE_STATIC", () => {
    expect(parseConfig({ PORT: "", SERVE_STATIC: "false" })).toMatchObject({ PORT: 4321, SERVE_STATIC: false });
  });

  it("names the variable and the value for every bad setting", () => {
    const message = errorOf({ PORT: "80a", SITE_URL: "ftp://x", SERVE_STATIC: "yes", LOG_LEVEL: "loud" });
    expect(message).toContain('PORT: must be a port number from 0 to 65535, got "80a"');
    expect(message).toContain(
      'SITE_URL: must be an absolute http(s) URL, e.g. https://reviews.example.com, got "ftp://x"',
    );
    expect(message).toContain('SERVE_STATIC: must be true or false, got "yes"');
    expect(message).toMatch(/LOG_LEVEL: .*got "loud"/);
    expect(errorOf({ PORT: "70000" })).toContain('PORT: must be a port number from 0 to 65535, got "70000"');
  });
});

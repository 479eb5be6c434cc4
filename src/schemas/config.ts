import { z } from "zod";

const BooleanFlagSchema = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

/**
 * Process configuration, read once from the environment at start-up. Keys are the environment
 * variable names so that an error can name the variable to fix.
 */
export const ConfigSchema = z
  .object({
    PORT: z.coerce
      .number({ error: "must be a port number from 0 to 65535" })
      .int({ error: "must be a port number from 0 to 65535" })
      .min(0, { error: "must be a port number from 0 to 65535" })
      .max(65535, { error: "must be a port number from 0 to 65535" })
      .default(4321),
    HOST: z.string().min(1, { error: "must be a host name or address, e.g. 127.0.0.1" }).default("127.0.0.1"),
    SITE_URL: z
      .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL, e.g. https://reviews.example.com" })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional()
      .meta({ description: "Public base URL of the service; defaults to http://localhost:PORT." }),
    DIST_DIR: z.string().min(1).default("dist"),
    DATA_DIR: z.string().min(1).default("data"),
    SERVE_STATIC: BooleanFlagSchema.default(true),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "silent"]).default("info"),
    RELOAD_INTERVAL_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds, 0 to disable" })
      .int({ error: "must be a whole number of milliseconds, 0 to disable" })
      .min(0, { error: "must be a whole number of milliseconds, 0 to disable" })
      .default(2000)
      .meta({ description: "How often the sidecar checks dist/ for a new build." }),
    MCP_SESSION_SECRET: z
      .string()
      .min(32, { error: "must be at least 32 characters (e.g. openssl rand -base64 32)" })
      .optional()
      .meta({ description: "Signs MCP session ids; give every replica the same one. Unset: random per process." }),
    MCP_SESSION_TTL_SECONDS: z.coerce
      .number({ error: "must be a whole number of seconds from 60 to 2592000" })
      .int({ error: "must be a whole number of seconds from 60 to 2592000" })
      .min(60, { error: "must be a whole number of seconds from 60 to 2592000" })
      .max(2_592_000, { error: "must be a whole number of seconds from 60 to 2592000" })
      .default(86_400),
    MCP_RATE_LIMIT_PER_MINUTE: z.coerce
      .number({ error: "must be a whole number of requests, at least 1" })
      .int({ error: "must be a whole number of requests, at least 1" })
      .min(1, { error: "must be a whole number of requests, at least 1" })
      .default(600),
  })
  .transform(({ SITE_URL, ...rest }) => ({
    ...rest,
    SITE_URL: SITE_URL ?? `http://localhost:${rest.PORT === 0 ? 4321 : rest.PORT}`,
  }));
export type Config = z.infer<typeof ConfigSchema>;

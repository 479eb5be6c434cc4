import { z } from "zod";

const BooleanFlagSchema = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((v) => v === "true" || v === "1");

const wholeNumber = (what: string, min: number) =>
  z.coerce
    .number({ error: `must be a whole number of ${what}, at least ${min}` })
    .int({ error: `must be a whole number of ${what}, at least ${min}` })
    .min(min, { error: `must be a whole number of ${what}, at least ${min}` });
const seconds = wholeNumber("seconds", 1);
const milliseconds = wholeNumber("milliseconds", 1);
const count = wholeNumber("items", 1);

/** Node's HTTP server timeouts (see README "Security"): a slow client cannot hold a connection for long. */
export const HTTP_TIMEOUT_DEFAULTS = { request: 30_000, headers: 10_000, keepAlive: 5_000 } as const;

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
/** TRUST_PROXY: off (""), a number of proxy hops, or the proxies' addresses (Express's `trust proxy`). */
const TrustProxySchema = z
  .string()
  .default("")
  .transform((value, context): false | number | string[] => {
    if (value.trim() === "") return false;
    if (/^\d+$/.test(value.trim())) return Number(value.trim());
    const entries = value.split(",").map((entry) => entry.trim());
    for (const entry of entries) {
      if (!PROXY_NAMES.has(entry) && !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry)) {
        context.addIssue({
          code: "custom",
          message: `must be a number of proxy hops, or a comma-separated list of proxy addresses, CIDRs or loopback, linklocal, uniquelocal; "${entry}" is none`,
        });
      }
    }
    return entries;
  });

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
    LOG_FORMAT: z
      .enum(["auto", "json", "pretty"], { error: "must be auto, json or pretty" })
      .default("auto")
      .meta({ description: "auto: human-readable in an interactive terminal (not under CI), JSON lines otherwise." }),
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
    STATE_DIR: z
      .string()
      .min(1)
      .default("var")
      .meta({ description: "Folder of the hub's SQLite database (unused when DATABASE_URL is set)." }),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\/\S+$/, { error: "must be a postgres:// or postgresql:// connection URL" })
      .optional()
      .meta({
        description:
          "PostgreSQL for the hub's state and MCP session revocation, shared by every replica. Unset: SQLite in STATE_DIR (one replica).",
      }),
    HUB_LEASE_DEFAULT_SECONDS: seconds.default(864_000),
    HUB_LEASE_MIN_SECONDS: seconds.default(3_600),
    HUB_LEASE_MAX_SECONDS: seconds.default(2_592_000),
    HUB_RETRY_MIN_MS: milliseconds.default(1_000),
    HUB_RETRY_MAX_MS: milliseconds.default(30_000),
    HUB_RETRY_FACTOR: z.coerce
      .number({ error: "must be a number of at least 1" })
      .min(1, { error: "must be a number of at least 1" })
      .default(2),
    HUB_TIMEOUT_MS: milliseconds.default(10_000),
    HUB_CONCURRENCY: count.default(32).meta({ description: "Deliveries (and denials) in flight at once." }),
    HUB_VERIFY_CONCURRENCY: count
      .default(16)
      .meta({ description: "Verifications of intent in flight at once; deliveries never wait for them." }),
    HUB_ALLOWED_CIDRS: z
      .string()
      .default("")
      .transform((value, context) => {
        const cidrs = value
          .split(",")
          .map((c) => c.trim())
          .filter((c) => c.length > 0);
        for (const cidr of cidrs) {
          if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(cidr)) {
            context.addIssue({
              code: "custom",
              message: `must be a comma-separated list of CIDRs, e.g. 127.0.0.0/8; "${cidr}" is not one`,
            });
          }
        }
        return cidrs;
      })
      .meta({ description: "Extra addresses the hub may call back (tests only). Empty in production." }),
    HUB_EXTRA_CA_FILE: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "PEM file of an extra CA to trust for callbacks." }),
    HUB_PUBLISH_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
    HUB_URL: z
      .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL of the hub" })
      .optional()
      .meta({ description: "npm run publish: the hub to ping; default $SITE_URL/api/websub/hub." }),
    PUBLISH_ATTEMPTS: count.default(6).meta({ description: "npm run publish: how often to try the hub." }),
    HUB_RATE_LIMIT_PER_MINUTE: count.default(60),
    HUB_CALLBACK_HOST_RATE_LIMIT_PER_MINUTE: count.default(30),
    HUB_MAX_SUBSCRIPTIONS_PER_HOST: count.default(1_000),
    HUB_MAX_SUBSCRIPTIONS: count.default(100_000),
    // Per host below HUB_VERIFY_CONCURRENCY: callbacks of one host that never answer cannot hold every
    // verification slot.
    HUB_MAX_PENDING_PER_CLIENT: count
      .default(10)
      .meta({ description: "Verifications pending at once for requests from one client address (429 past it)." }),
    HUB_MAX_PENDING_PER_HOST: count
      .default(10)
      .meta({ description: "Verifications pending at once towards one callback host (429 past it)." }),
    HUB_MAX_PENDING: count.default(1_000).meta({ description: "Verifications pending at once in all (503 past it)." }),
    MCP_RATE_LIMIT_PER_MINUTE: z.coerce
      .number({ error: "must be a whole number of requests, at least 1" })
      .int({ error: "must be a whole number of requests, at least 1" })
      .min(1, { error: "must be a whole number of requests, at least 1" })
      .default(600),
    READ_RATE_LIMIT_PER_MINUTE: z.coerce
      .number({ error: "must be a whole number of requests, 0 to disable" })
      .int({ error: "must be a whole number of requests, 0 to disable" })
      .min(0, { error: "must be a whole number of requests, 0 to disable" })
      .default(1_200)
      .meta({ description: "Read API requests (search, since, static documents) per minute per client; 0: no limit." }),
    TRUST_PROXY: TrustProxySchema.meta({
      description:
        "Proxies in front of the sidecar whose X-Forwarded-For names the client (rate limits key on it); empty: none.",
    }),
    HTTP_REQUEST_TIMEOUT_MS: milliseconds
      .default(HTTP_TIMEOUT_DEFAULTS.request)
      .meta({ description: "Time a client has to send a whole request (headers and body)." }),
    HTTP_HEADERS_TIMEOUT_MS: milliseconds
      .default(HTTP_TIMEOUT_DEFAULTS.headers)
      .meta({ description: "Time a client has to send a request's headers." }),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds
      .default(HTTP_TIMEOUT_DEFAULTS.keepAlive)
      .meta({ description: "How long an idle keep-alive connection stays open." }),
    MCP_MAX_SUBSCRIPTIONS: count
      .default(256)
      .meta({ description: "Open MCP subscriptions/listen streams at most; further ones are refused." }),
    METRICS_TOKEN: z
      .string()
      .min(16, { error: "must be at least 16 characters (e.g. openssl rand -base64 24)" })
      .optional()
      .meta({ description: "If set, GET /metrics asks for Authorization: Bearer <token>; unset: /metrics is open." }),
    SHUTDOWN_DELAY_MS: z.coerce
      .number({ error: "must be a whole number of milliseconds, 0 or more" })
      .int({ error: "must be a whole number of milliseconds, 0 or more" })
      .min(0, { error: "must be a whole number of milliseconds, 0 or more" })
      .default(0)
      .meta({ description: "On SIGTERM, how long /readyz answers 503 before the listener closes." }),
    SHUTDOWN_TIMEOUT_MS: milliseconds
      .default(10_000)
      .meta({ description: "On SIGTERM, how long in-flight requests and deliveries may take before being cut." }),
  })
  .superRefine((config, context) => {
    if (config.HTTP_HEADERS_TIMEOUT_MS > config.HTTP_REQUEST_TIMEOUT_MS) {
      context.addIssue({
        code: "custom",
        path: ["HTTP_HEADERS_TIMEOUT_MS"],
        message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${config.HTTP_REQUEST_TIMEOUT_MS})`,
      });
    }
    const { HUB_LEASE_MIN_SECONDS: min, HUB_LEASE_DEFAULT_SECONDS: lease, HUB_LEASE_MAX_SECONDS: max } = config;
    if (!(min <= lease && lease <= max)) {
      context.addIssue({
        code: "custom",
        path: ["HUB_LEASE_DEFAULT_SECONDS"],
        message: `must lie between HUB_LEASE_MIN_SECONDS (${min}) and HUB_LEASE_MAX_SECONDS (${max})`,
      });
    }
  })
  .transform(({ SITE_URL, ...rest }) => ({
    ...rest,
    SITE_URL: SITE_URL ?? `http://localhost:${rest.PORT === 0 ? 4321 : rest.PORT}`,
  }));
export type Config = z.infer<typeof ConfigSchema>;

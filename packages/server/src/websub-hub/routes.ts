import { callbackHost } from "@riverbend/shared/websub/callback-url.ts";
import { HubRequestError, parseHubRequest } from "@riverbend/shared/websub/hub-request.ts";
import express, { type NextFunction, type Request, type RequestHandler, type Response, Router } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { EXACT_ROUTING } from "../http/routing.ts";
import { sameSecret } from "../http/same-secret.ts";
import type { Hub } from "./hub.ts";
import { StoreUnavailableError } from "./store/hub-store.ts";

export interface HubRouteOptions {
  hub: Hub;
  bundles: BundleStore;
  publishToken: string | undefined;
  ratePerMinute: number;
  callbackHostRatePerMinute: number;
}

const FORM = "application/x-www-form-urlencoded";
/** Seconds a client is asked to wait while the hub's database is unreachable. */
const RETRY_AFTER_SECONDS = 5;

function callbackHostOf(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  const callback = new URLSearchParams(body).get("hub.callback");
  try {
    return callback ? callbackHost(callback) : undefined;
  } catch {
    return undefined;
  }
}

const tooMany =
  (what: string) =>
  (_req: Request, res: Response, _next: NextFunction, options: { statusCode: number }): void => {
    res.status(options.statusCode).type("text/plain").send(`Too many requests from this ${what}; retry later.`);
  };

/** POST /api/websub/hub: subscribe, unsubscribe and publish, answered in plain text. */
export function hubRoutes(options: HubRouteOptions): Router {
  const { hub } = options;
  const router = Router(EXACT_ROUTING);
  const path = "/api/websub/hub";
  const limits = {
    windowMs: 60_000,
    standardHeaders: "draft-7" as const,
    legacyHeaders: false,
  };
  router.post(
    path,
    rateLimit({ ...limits, limit: options.ratePerMinute, handler: tooMany("address") }),
    express.text({ type: () => true, limit: "16kb" }),
    rateLimit({
      ...limits,
      limit: options.callbackHostRatePerMinute,
      skip: (req) => callbackHostOf(req.body) === undefined,
      keyGenerator: (req) => `callback:${callbackHostOf(req.body)}`,
      handler: tooMany("callback host"),
    }),
    (async (req, res) => {
      try {
        await answer(req, res);
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error;
        throw new HubRequestError(503, "The hub's database is unavailable; retry later.", RETRY_AFTER_SECONDS);
      }
    }) satisfies RequestHandler,
  );
  router.all(path, (_req, res) => {
    res.setHeader("Allow", "POST");
    res.status(405).type("text/plain").send("Use POST with a form-encoded body.");
  });
  return router;

  async function answer(req: Request, res: Response): Promise<void> {
    if (!req.is(FORM) || typeof req.body !== "string") {
      throw new HubRequestError(415, `The body must be ${FORM}.`);
    }
    const request = parseHubRequest(new URLSearchParams(req.body), hub.topics, hub.lease);
    if (request.mode === "publish") {
      if (options.publishToken && !sameSecret(req.headers.authorization ?? "", `Bearer ${options.publishToken}`)) {
        throw new HubRequestError(401, "Publishing needs the bearer token configured as HUB_PUBLISH_TOKEN.");
      }
      // Loading the build lets the hub's swap listener record changes itself, so the reply compares
      // the distributed hashes before and after rather than what this call alone detected.
      const hashes = () => Promise.all([...hub.topics.keys()].map((topic) => hub.store.distributedHash(topic)));
      const before = await hashes();
      options.bundles.reload();
      await hub.detectChanges();
      const after = await hashes();
      const changed = [...hub.topics.keys()].filter((_topic, i) => after[i] !== before[i]);
      res
        .status(202)
        .type("text/plain")
        .send(changed.length > 0 ? `Accepted: distributing ${changed.join(", ")}` : "Accepted: nothing changed");
      return;
    }
    const refusal = hub.checkCallbackAddress(request.callback);
    if (refusal) throw new HubRequestError(400, `hub.callback is not allowed: ${refusal}`);
    // Grouped as the per-address rate limit groups them (an IPv6 client by its /56).
    await hub.accept(request, ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? ""));
    res.status(202).type("text/plain").send("Accepted: verification of intent follows.");
  }
}

import { type RequestHandler, Router } from "express";
import { HttpError } from "../http/errors.ts";
import { sameSecret } from "../http/same-secret.ts";
import type { Metrics } from "./metrics.ts";

/** Where a request is counted: its route pattern, or a fixed name (bounded labels). */
export function routeOf(req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1]): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === "string") return `${req.baseUrl}${pattern}`;
  if (typeof res.locals.metricsRoute === "string") return res.locals.metricsRoute;
  return res.statusCode === 404 ? "(unmatched)" : "(other)";
}

/**
 * GET /metrics in the Prometheus text format. With a token configured it asks for
 * `Authorization: Bearer <token>`; without one it is open (counts only: no ids, URLs or callbacks).
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined): Router {
  const router = Router();
  router.get("/metrics", async (req, res, next) => {
    if (token !== undefined && !sameSecret(req.headers.authorization ?? "", `Bearer ${token}`)) {
      next(
        new HttpError(401, "unauthorized", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.", {
          headers: { "WWW-Authenticate": 'Bearer realm="metrics"' },
        }),
      );
      return;
    }
    try {
      const text = await metrics.registry.metrics();
      res.setHeader("Cache-Control", "no-store");
      res.type(metrics.registry.contentType).send(text);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

import { Router } from "express";
import type { BundleStore } from "../bundle/bundle-store.ts";

/** Why the process should not get traffic now (shutting down, database closed), or undefined. */
export type Readiness = () => string | undefined;
/** What /readyz reports besides (e.g. the database's state), ready or not. */
export type ReadinessDetails = () => Record<string, string>;

/** GET /healthz: liveness plus which data is being served. GET /readyz: whether to send traffic here. */
export function healthRoutes(
  store: BundleStore,
  readiness: Readiness = () => undefined,
  details: ReadinessDetails = () => ({}),
): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    const { index, bundle } = store.current;
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok", reviews: index.count, data_sha256: bundle.manifest.data_sha256 });
  });
  router.get("/readyz", (_req, res) => {
    // The store holds a loaded build from construction on; the rest (the hub's database, shutdown)
    // is the process's to say.
    const reason = readiness();
    res.setHeader("Cache-Control", "no-store");
    if (reason) {
      res.status(503).json({ status: "not_ready", reason, ...details() });
      return;
    }
    res.json({ status: "ready", reviews: store.current.index.count, ...details() });
  });
  return router;
}

import { Router } from "express";
import type { BundleStore } from "../bundle/bundle-store.ts";

/** GET /healthz: liveness plus which data is being served. */
export function healthRoutes(store: BundleStore): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    const { index, bundle } = store.current;
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok", reviews: index.reviews.length, data_sha256: bundle.manifest.data_sha256 });
  });
  return router;
}

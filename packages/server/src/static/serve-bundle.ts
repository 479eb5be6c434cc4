import type { SiteUrls } from "@riverbend/shared/web/urls.ts";
import type { RequestHandler } from "express";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { isNotModified } from "../http/conditional.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { headersFor } from "./headers.ts";

const READ_METHODS = ["GET", "HEAD"] as const;

/** CORS preflight of a document: any origin may read it, revalidating with its validators (a conditional GET). */
const PREFLIGHT = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD",
  "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since",
  "Access-Control-Max-Age": "86400",
};

/**
 * Serves the files a build's manifest lists, with the manifest's type, ETag and Last-Modified,
 * answering preconditions with 304; `send` streams the file and handles HEAD and ranges. Anything
 * the manifest does not list falls through to the next handler.
 */
export function serveBundle(store: BundleStore, urls: SiteUrls, limit?: RequestHandler): RequestHandler {
  return (req, res, next) => {
    // A new build is renamed onto DIST_DIR in one step; load its manifest before serving any of its
    // files, so validators and bytes always come from the same build (a stat per request).
    store.reload();
    const { bundle } = store.current;
    const entry = bundle.entries.get(req.path);
    if (!entry) {
      if (!req.path.endsWith("/") && bundle.entries.has(`${req.path}/`) && READ_METHODS.includes(req.method as "GET")) {
        const query = req.originalUrl.slice(req.path.length);
        res.redirect(301, `${req.path}/${query.startsWith("?") ? query : ""}`);
        return;
      }
      next();
      return;
    }
    res.locals.metricsRoute = "(static)";
    const serve = (error?: unknown) => {
      if (error) {
        next(error);
        return;
      }
      if (req.method === "OPTIONS") {
        res.set(PREFLIGHT).status(204).end();
        return;
      }
      if (!READ_METHODS.includes(req.method as "GET")) {
        next(methodNotAllowed(req.method, READ_METHODS));
        return;
      }
      res.set(headersFor(entry, urls));
      if (isNotModified(req.headers, { etag: entry.etag, lastModified: entry.last_modified })) {
        res.status(304).end();
        return;
      }
      // Only manifest entries get here, so dot-folders such as .well-known/ are published on purpose.
      res.sendFile(entry.file, { root: bundle.dir, etag: false, lastModified: false, dotfiles: "allow" }, (failed) => {
        if (failed) next(failed);
      });
    };
    if (limit) limit(req, res, serve);
    else serve();
  };
}

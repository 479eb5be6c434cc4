import cors from "cors";
import { type ErrorRequestHandler, type RequestHandler, Router } from "express";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { sendJson } from "../http/send-json.ts";
import { READ_CACHE_CONTROL, READ_CORS, READ_METHODS, searchAnswer, sinceAnswer } from "./read-api.ts";

const wrongMethod: RequestHandler = (req, _res, next) => next(methodNotAllowed(req.method, READ_METHODS));

/** GET /api/reviews/search and /api/reviews/since/{date}: thin wrappers around the search service. */
export function reviewRoutes(store: BundleStore): Router {
  const router = Router();
  router.use("/api/reviews", cors(READ_CORS));

  router.get("/api/reviews/search", (req, res) => {
    const loaded = store.current;
    const mark = req.originalUrl.indexOf("?");
    const cached = searchAnswer(loaded, mark < 0 ? "" : req.originalUrl.slice(mark + 1));
    sendJson(req, res, cached, { lastModified: loaded.lastModified, cacheControl: READ_CACHE_CONTROL });
  });
  router.all("/api/reviews/search", wrongMethod);

  router.get("/api/reviews/since/:date", (req, res) => {
    const loaded = store.current;
    const cached = sinceAnswer(loaded, req.params.date);
    sendJson(req, res, cached, { lastModified: loaded.lastModified, cacheControl: READ_CACHE_CONTROL });
  });
  router.all("/api/reviews/since/:date", wrongMethod);
  // A date segment that is not valid percent-encoding fails while Express decodes it, before the
  // route runs: answer it like any other malformed date.
  router.use("/api/reviews/since", ((error, _req, _res, next) => {
    next(
      error instanceof URIError
        ? new InvalidRequestError([{ path: "date", code: "invalid_format", message: "is not valid percent-encoding" }])
        : error,
    );
  }) satisfies ErrorRequestHandler);
  return router;
}

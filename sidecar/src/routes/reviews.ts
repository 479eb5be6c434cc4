import cors from "cors";
import { type ErrorRequestHandler, type RequestHandler, Router } from "express";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import { searchReviewsFromQuery } from "../../../src/search/query-string.ts";
import { reviewsSince } from "../../../src/search/reviews-since.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { jsonBody, sendJson } from "../http/send-json.ts";

const READ = ["GET", "HEAD", "OPTIONS"];
const CACHE = "public, max-age=60, must-revalidate";
const wrongMethod: RequestHandler = (req, _res, next) => next(methodNotAllowed(req.method, READ));

/** GET /api/reviews/search and /api/reviews/since/{date}: thin wrappers around the search service. */
export function reviewRoutes(store: BundleStore): Router {
  const router = Router();
  router.use(
    "/api/reviews",
    cors({
      origin: "*",
      methods: READ,
      allowedHeaders: ["If-None-Match", "If-Modified-Since", "Content-Type"],
      exposedHeaders: ["ETag", "Last-Modified"],
      maxAge: 86_400,
    }),
  );

  router.get("/api/reviews/search", (req, res) => {
    const { index, lastModified, searchCache } = store.current;
    const mark = req.originalUrl.indexOf("?");
    const queryString = mark < 0 ? "" : req.originalUrl.slice(mark + 1);
    const cached = searchCache.memo(queryString, {
      context: () => jsonBody(searchReviewsFromQuery(index, new URLSearchParams(queryString))),
    });
    sendJson(req, res, cached, { lastModified, cacheControl: CACHE });
  });
  router.all("/api/reviews/search", wrongMethod);

  router.get("/api/reviews/since/:date", (req, res) => {
    const { index, lastModified, sinceCache } = store.current;
    const date = req.params.date;
    const cached = sinceCache.memo(date, { context: () => jsonBody(reviewsSince(index, date)) });
    sendJson(req, res, cached, { lastModified, cacheControl: CACHE });
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

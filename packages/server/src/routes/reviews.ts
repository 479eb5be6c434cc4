import { InvalidRequestError } from "@riverbend/shared/search/errors.ts";
import { searchFromQuery, sinceFromQuery } from "@riverbend/shared/search/read-queries.ts";
import { searchBody, sinceBody } from "@riverbend/shared/search/response-body.ts";
import { runSince } from "@riverbend/shared/search/reviews-since.ts";
import { answerTag, runSearch } from "@riverbend/shared/search/search-reviews.ts";
import cors from "cors";
import type { ErrorRequestHandler, Express, RequestHandler } from "express";
import type { BundleStore } from "../bundle/bundle-store.ts";
import { methodNotAllowed } from "../http/errors.ts";
import { READ_EXPOSED_HEADERS, sendAnswer } from "./send-answer.ts";

const READ_METHODS = ["GET", "HEAD", "OPTIONS"];
const READ_CORS = {
  origin: "*",
  methods: READ_METHODS,
  allowedHeaders: ["If-None-Match", "If-Modified-Since", "Content-Type"],
  exposedHeaders: READ_EXPOSED_HEADERS,
  maxAge: 86_400,
};

const PATHS = ["/api/reviews/search", "/api/reviews/since/:date"];
const wrongMethod: RequestHandler = (req, _res, next) => next(methodNotAllowed(req.method, READ_METHODS));

/** The raw query string of a request, without "?", undecoded (the search service decodes it strictly). */
function rawQuery(url: string): string {
  const mark = url.indexOf("?");
  return mark < 0 ? "" : url.slice(mark + 1);
}

/**
 * GET /api/reviews/search and /api/reviews/since/{date}: thin wrappers around the search service,
 * registered on the app itself: behind a Router of their own every read paid a second routing pass.
 */
export function addReviewRoutes(app: Express, store: BundleStore): void {
  app.get("/api/reviews/search", (req, res) => {
    const loaded = store.current;
    const { index } = loaded;
    sendAnswer(req, res, loaded, req.originalUrl, () => {
      const search = searchFromQuery(index, rawQuery(req.originalUrl));
      return {
        etag: answerTag(index, search.key),
        build: () => searchBody(index, runSearch(index, search)),
      };
    });
  });

  app.get("/api/reviews/since/:date", (req, res) => {
    const loaded = store.current;
    const { index } = loaded;
    sendAnswer(req, res, loaded, req.originalUrl, () => {
      const since = sinceFromQuery(index, req.params.date, rawQuery(req.originalUrl));
      return {
        etag: answerTag(index, since.key),
        build: () => sinceBody(index, runSince(index, since)),
      };
    });
  });
  // Preflights through `cors`; the answers themselves carry its two headers among those computed once
  // per build (send-answer.ts), so a read does not rebuild the CORS options on every request.
  app.options(PATHS, cors(READ_CORS));
  app.all(PATHS, wrongMethod);
  // A date segment that is not valid percent-encoding fails while Express decodes it, before the
  // route runs: answer it like any other malformed date.
  app.use("/api/reviews/since", ((error, _req, _res, next) => {
    next(
      error instanceof URIError
        ? new InvalidRequestError([
            { path: "date", code: "invalid_encoding", message: "is not valid percent-encoding" },
          ])
        : error,
    );
  }) satisfies ErrorRequestHandler);
}

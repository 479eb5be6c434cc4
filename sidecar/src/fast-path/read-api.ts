import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { InvalidRequestError } from "../../../src/search/errors.ts";
import type { BundleStore } from "../bundle/bundle-store.ts";
import type { LoadedBundle } from "../bundle/loaded-bundle.ts";
import { createAccessLog } from "../http/access-log.ts";
import { COMMON_HEADERS } from "../http/common-headers.ts";
import { COMPRESSION_THRESHOLD, wouldCompress } from "../http/compression.ts";
import { writeErrorAnswer } from "../http/error-handler.ts";
import { errorAnswer } from "../http/error-response.ts";
import { requestId } from "../http/request-id.ts";
import { type JsonBody, sendJson } from "../http/send-json.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { READ_CACHE_CONTROL, READ_CORS_HEADERS, searchAnswer, sinceAnswer } from "../routes/read-api.ts";

/** Returns true when it answered; false leaves the request untouched for Express. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const SEARCH = "/api/reviews/search";
const SINCE = "/api/reviews/since/";
const SINCE_ROUTE = "/api/reviews/since/:date";

type Answer = { route: string; json: JsonBody } | { route: string; error: InvalidRequestError };

/** The route and answer of a read the fast path knows, or undefined for anything else. */
function answer(loaded: LoadedBundle, url: string): Answer | undefined {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  let route: string;
  let compute: () => JsonBody;
  if (path === SEARCH) {
    route = SEARCH;
    compute = () => searchAnswer(loaded, mark < 0 ? "" : url.slice(mark + 1));
  } else if (path.startsWith(SINCE)) {
    const date = path.slice(SINCE.length);
    // Percent-encoded, empty or nested segments are Express's to decode and match.
    if (date === "" || date.includes("/") || date.includes("%")) return undefined;
    route = SINCE_ROUTE;
    compute = () => sinceAnswer(loaded, date);
  } else {
    return undefined;
  }
  try {
    return { route, json: compute() };
  } catch (error) {
    if (error instanceof InvalidRequestError) return { route, error };
    // Anything unexpected is left to Express, whose error handler logs it and answers 500.
    return undefined;
  }
}

/**
 * GET and HEAD of search and since answered with plain node:http before Express, with the same
 * answer functions, validators, error mapping and headers as the Express routes (a test compares
 * the two). Requests with a body, and answers the compression middleware would compress, go to Express.
 */
export function createFastPath(deps: { store: BundleStore; logger: Logger; metrics: Metrics }): FastPath {
  const { store, logger, metrics } = deps;
  const accessLog = createAccessLog(logger);
  return (req, res) => {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
    const started = performance.now();
    const url = req.url ?? "";
    const loaded = store.current;
    const found = answer(loaded, url);
    if (!found) return false;
    const size = "json" in found ? found.json.body.length : COMPRESSION_THRESHOLD;
    if (method === "GET" && wouldCompress(req.headers, size)) return false;

    const id = requestId(req);
    // What the Express app's middleware adds: the request id (pino-http), Link, CORS (cors).
    const headers = { "X-Request-Id": id, ...COMMON_HEADERS, ...READ_CORS_HEADERS };
    if ("json" in found) {
      sendJson(req, res, found.json, { lastModified: loaded.lastModified, cacheControl: READ_CACHE_CONTROL, headers });
    } else {
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      res.setHeader("Vary", "Accept-Encoding");
      writeErrorAnswer(res, errorAnswer(found.error), true);
    }
    const ms = performance.now() - started;
    metrics.observeRequest(method, found.route, res.statusCode, ms / 1000);
    accessLog?.({ id, method, url, statusCode: res.statusCode, ms });
    return true;
  };
}

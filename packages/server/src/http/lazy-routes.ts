import type { RequestHandler } from "express";

/**
 * Routes under `prefix` whose module is imported on the first request under it (or by `preload`),
 * so start-up does not pay for what the first requests do not need. Until then other paths pass by.
 */
export function lazyRoutes(prefix: string, load: () => Promise<RequestHandler>) {
  let routes: RequestHandler | undefined;
  let loading: Promise<RequestHandler> | undefined;
  const preload = () => {
    loading ??= load().then((loaded) => {
      routes = loaded;
      return loaded;
    });
    return loading;
  };
  const handler: RequestHandler = (req, res, next) => {
    if (routes) {
      routes(req, res, next);
      return;
    }
    if (req.path !== prefix && !req.path.startsWith(`${prefix}/`)) {
      next();
      return;
    }
    void preload().then((loaded) => loaded(req, res, next), next);
  };
  return { handler, preload };
}

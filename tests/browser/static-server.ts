import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { contentTypeFor } from "@riverbend/shared/bundle/content-types.ts";

/**
 * A plain static file server of a dist/ folder, as a CDN-only deployment would be: files and
 * folder index.html, 404 for anything else, no search API, no headers beyond the content type.
 */
export function staticServer(dir: string): Server {
  return createServer(async (req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = path.join(dir, urlPath);
    if (!file.startsWith(dir)) {
      res.writeHead(400).end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "Content-Type": contentTypeFor(urlPath, file) }).end(body);
    } catch {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
    }
  });
}

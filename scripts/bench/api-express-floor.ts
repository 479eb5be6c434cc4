import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import express from "express";

// The Express floor of `npm run bench:api`: a minimal Express 5 app, in a process of its own, whose one
// route sends the same precomputed body as the bare ceiling; the gap between the two is Express itself.
const [bodyFile] = process.argv.slice(2);
if (!bodyFile) throw new Error("usage: api-express-floor.ts BODY_FILE");
const body = readFileSync(bodyFile);
const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.length) };

const app = express();
app.disable("x-powered-by");
app.set("etag", false);
app.get("/", (_req, res) => {
  res.writeHead(200, headers).end(body);
});
const server = createServer(app);
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`express floor listening on http://127.0.0.1:${port} (${body.length} bytes per response)`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

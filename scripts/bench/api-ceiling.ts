import { readFileSync } from "node:fs";
import { createServer } from "node:http";

// The ceiling of `npm run bench:api`: a bare node:http server in a process of its own that answers every
// request with one precomputed JSON body (a real search response of typical size), nothing else.
const [bodyFile] = process.argv.slice(2);
if (!bodyFile) throw new Error("usage: api-ceiling.ts BODY_FILE");
const body = readFileSync(bodyFile);
const headers = { "Content-Type": "application/json; charset=utf-8", "Content-Length": String(body.length) };

const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  console.log(`ceiling listening on http://127.0.0.1:${port} (${body.length} bytes per response)`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createApp } from "@riverbend/server/app.ts";
import { BundleStore } from "@riverbend/server/bundle/bundle-store.ts";
import { siteUrls } from "@riverbend/shared/web/urls.ts";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import { type ApiExample, apiExamples } from "../src/discovery/api-page/examples.ts";
import { escapeHtml } from "../src/site/html.ts";
import { TEST_SITE_URL as SITE } from "./support/global-setup.ts";
import { listen } from "./support/http.ts";

const logger = pino({ level: "silent" });
let server: { base: string; close: () => Promise<void> };
let page: string;
let examples: ApiExample[];
let openapi: { paths: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  const dist = inject("sampleDist");
  const store = new BundleStore(dist, logger);
  server = await listen(createApp({ config: { SITE_URL: SITE, SERVE_STATIC: true }, store, logger }));
  page = await (await fetch(`${server.base}/api/`)).text();
  openapi = JSON.parse(readFileSync(path.join(dist, "openapi.json"), "utf8"));
  const insights = JSON.parse(readFileSync(path.join(dist, "insights.json"), "utf8"));
  examples = apiExamples(loadDataset("data"), siteUrls(SITE), insights);
});
afterAll(() => server.close());

describe("the human API page", () => {
  it("documents every operation of the OpenAPI description with an example request and response", () => {
    const operations = Object.entries(openapi.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations.length).toBeGreaterThanOrEqual(9);
    expect(examples.map((e) => e.operation).sort()).toEqual([...operations].sort());
    for (const example of examples) {
      expect(page, example.operation).toContain(`<code>${escapeHtml(example.operation)}</code>`);
      expect(page, example.operation).toContain(escapeHtml(example.curl));
    }
    expect(page).toContain('id="mcp"');
    expect(page).toContain(`<link rel="canonical" href="${SITE}/api/">`);
  });

  it("opens with contents linking to every operation, fills every Type cell and shows no literal Markdown", () => {
    const contents = /<nav class="card toc" id="contents"[\s\S]*?<\/nav>/.exec(page)?.[0] ?? "";
    const anchors = [...contents.matchAll(/href="#([^"]+)"/g)].map((m) => m[1] as string);
    expect(anchors.length).toBe(examples.length);
    for (const anchor of anchors) expect(page).toContain(`<section id="${anchor}">`);
    const cells = [
      ...page.matchAll(/<tr><td><code>[^<]+<\/code><\/td><td>[^<]*<\/td><td>(?:yes|no)<\/td><td>([^<]*)<\/td>/g),
    ];
    expect(cells.length).toBeGreaterThan(10);
    for (const cell of cells) expect(cell[1], cell[0]).not.toBe("");
    const prose = page.replace(/<pre>[\s\S]*?<\/pre>/g, "");
    expect(prose).not.toMatch(/`|\*\*/);
  });

  it("shows for every GET the answer the service really gives", async () => {
    for (const example of examples.filter((e) => e.operation.startsWith("GET "))) {
      expect(example.curl).toBe(`curl -s '${SITE}${example.request}'`);
      const response = await fetch(`${server.base}${example.request}`);
      expect(response.status, example.request).toBe(example.status);
      expect(response.headers.get("content-type")?.split(";")[0], example.request).toBe(example.contentType);
      const text = await response.text();
      if (typeof example.body === "string") expect(text, example.request).toBe(example.body);
      else expect(JSON.parse(text), example.request).toEqual(example.body);
    }
  });

  it("runs the MCP example's curl commands as printed: the current revision answers as shown, the 2025 session the same result", async () => {
    const mcp = examples.find((e) => e.operation === "POST /mcp");
    const commands = (mcp?.curl ?? "").split("\n").filter((line) => line.startsWith("curl "));
    expect(commands).toHaveLength(3);
    // Asynchronously: the server answering curl runs in this process.
    const curl = async (command: string) =>
      (await promisify(execFile)("sh", ["-c", command.replaceAll(`${SITE}/mcp`, `${server.base}/mcp`)])).stdout;
    const [modern, initialize, call] = commands as [string, string, string];
    expect(JSON.parse(await curl(modern))).toEqual(mcp?.body);

    const session = /^mcp-session-id: (\S+)\r?$/im.exec(await curl(initialize))?.[1] ?? "";
    expect(session).not.toBe("");
    const body = mcp?.body as { result: Record<string, unknown> };
    const { resultType: _type, _meta, ...result } = body.result;
    const reply = JSON.parse(await curl(call.replace("SESSION_ID_FROM_STEP_1", session)));
    expect(reply).toEqual({ ...body, result });
  });
});

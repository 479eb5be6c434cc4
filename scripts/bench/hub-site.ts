import { spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { generate } from "selfsigned";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** A self-signed certificate for 127.0.0.1 (its own CA), written as PEM files. */
export async function writeCertificate(dir: string): Promise<{ keyFile: string; certFile: string }> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] },
    ],
  });
  const keyFile = path.join(dir, "subscriber.key");
  const certFile = path.join(dir, "subscriber.pem");
  writeFileSync(keyFile, pems.private);
  writeFileSync(certFile, pems.cert);
  return { keyFile, certFile };
}

function build(dataDir: string, distDir: string, siteUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/build.ts"], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", DATA_DIR: dataDir, DIST_DIR: distDir, SITE_URL: siteUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`build of ${distDir} failed:\n${output}`))));
  });
}

/**
 * Two builds of the sample data for `siteUrl`: as it is, and with one more (newest) review, so the
 * 50-item Atom feed differs between them. Built in parallel.
 */
export async function buildTwoSites(work: string, siteUrl: string): Promise<{ first: string; next: string }> {
  const data = path.join(work, "data-next");
  cpSync(path.join(ROOT, "data"), data, { recursive: true });
  const id = "2026-11-21-hub-bench";
  const review = {
    id,
    date: "2026-11-21",
    rating: 5,
    title: "Quick shutoff valve replacement",
    text: "The valve under the kitchen sink started leaking on a Saturday; it was replaced the same afternoon.",
    author: { name: "Bench R.", locality: "Roseville" },
    verified: true,
    verification: { method: "job_record" },
    source: "direct",
    technicians: ["Bill H."],
    services: ["water-heater-repair"],
    service_area: "roseville",
  };
  writeFileSync(path.join(data, "reviews", `${id}.json`), `${JSON.stringify(review, null, 2)}\n`);
  const first = path.join(work, "dist-first");
  const next = path.join(work, "dist-next");
  // Both builds finish (or fail) before this returns, so nothing writes into `work` after a failure.
  const builds = await Promise.allSettled([build(path.join(ROOT, "data"), first, siteUrl), build(data, next, siteUrl)]);
  for (const result of builds) if (result.status === "rejected") throw result.reason;
  return { first, next };
}

/** Hash and size of a topic document, from the build's manifest. */
export function documentOf(dist: string, urlPath: string): { sha256: string; size: number } {
  const manifest = JSON.parse(readFileSync(path.join(dist, "build-manifest.json"), "utf8")) as {
    entries: { path: string; sha256: string; size: number }[];
  };
  const entry = manifest.entries.find((e) => e.path === urlPath);
  if (!entry) throw new Error(`${urlPath} is not in ${dist}`);
  return { sha256: entry.sha256, size: entry.size };
}

/** Replaces `dist` by a copy of `from` the way a build does (rename away, rename in). */
export function swapDist(from: string, dist: string): void {
  const staging = `${dist}.staging`;
  const previous = `${dist}.previous`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(from, staging, { recursive: true });
  if (existsSync(dist)) renameSync(dist, previous);
  renameSync(staging, dist);
  rmSync(previous, { recursive: true, force: true });
}

/** Subscriptions in the hub's SQLite file, read through a read-only connection. */
export function countSubscriptions(stateDir: string): number {
  const file = path.join(stateDir, "hub.sqlite");
  if (!existsSync(file)) return 0;
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec("PRAGMA busy_timeout = 2000");
    return Number((db.prepare("SELECT COUNT(*) AS n FROM subscriptions").get() as { n: number }).n);
  } finally {
    db.close();
  }
}

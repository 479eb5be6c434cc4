import { statSync } from "node:fs";
import path from "node:path";
import { SiteUrlMismatchError } from "@riverbend/shared/bundle/built-for.ts";
import { MANIFEST_FILE } from "@riverbend/shared/bundle/manifest.ts";
import type { Logger } from "pino";
import { type LoadedBundle, loadIndexedBundle } from "./loaded-bundle.ts";

function manifestStamp(dir: string): string | undefined {
  try {
    const stat = statSync(path.join(dir, MANIFEST_FILE));
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * Holds the current build. A new build is loaded and indexed completely before it replaces the old
 * one in a single assignment, so a request (which reads `current` once) never sees half of each.
 */
export class BundleStore {
  #current: LoadedBundle;
  #stamp: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #listeners: ((loaded: LoadedBundle) => void)[] = [];

  readonly distDir: string;
  /** Why the build on disk is not served (made for another public URL), for /readyz; else undefined. */
  refusedBuild: string | undefined;
  private readonly logger: Logger;
  /** Whether HTML pages are served from the bundle (SERVE_STATIC); if not, their entries are dropped. */
  private readonly options: { pages?: boolean; siteUrl?: string };

  constructor(distDir: string, logger: Logger, options: { pages?: boolean; siteUrl?: string } = {}) {
    this.distDir = distDir;
    this.logger = logger;
    this.options = options;
    this.#stamp = manifestStamp(distDir);
    this.#current = loadIndexedBundle(distDir, options);
  }

  get current(): LoadedBundle {
    return this.#current;
  }

  /** Loads the build on disk if its manifest differs from the one served; true when it swapped. */
  reload(): boolean {
    const stamp = manifestStamp(this.distDir);
    if (stamp === undefined || stamp === this.#stamp) return false;
    try {
      const next = loadIndexedBundle(this.distDir, this.options);
      this.#current = next;
      this.#stamp = stamp;
      this.refusedBuild = undefined;
      for (const listener of this.#listeners) listener(next);
      this.logger.info({ reviews: next.index.count, data: next.index.version }, "loaded a new build");
      return true;
    } catch (error) {
      if (error instanceof SiteUrlMismatchError) {
        this.#stamp = stamp; // said once per build, not once per poll
        this.refusedBuild = `dist/ holds a build for another public URL: ${error.message}`;
        this.logger.error(`not serving the new build: ${error.message}`);
        return false;
      }
      // A build may be mid-swap; keep serving the old one and try again on the next tick.
      this.logger.warn({ err: error }, "could not load the new build yet");
      return false;
    }
  }

  /** Called after every swap, e.g. so the hub can look for changed topics. */
  onSwap(listener: (loaded: LoadedBundle) => void): void {
    this.#listeners.push(listener);
  }

  /** Polls the manifest; 0 disables. The timer does not keep the process alive. */
  watch(intervalMs: number): void {
    this.stop();
    if (intervalMs <= 0) return;
    this.#timer = setInterval(() => this.reload(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { TopicCatalogue } from "@riverbend/shared/schemas/insights-data.ts";
import type { Lexicon } from "@riverbend/shared/schemas/lexicon.ts";
import type { Encoded } from "../cache/codec.ts";

/** What the worker gets: the lexicon to build its analyser from, and its share. */
export interface WorkerInput {
  lexicon: Lexicon;
  /** The folder the learned model's files are read from (the project root). */
  modelRoot: string;
  topics: TopicCatalogue;
  texts: string[];
  ratings: number[];
}

export interface WorkerSetup {
  lexicon: Lexicon;
  modelRoot: string;
  topics: TopicCatalogue;
  /** For tests: how many texts this thread takes (default: so that both threads finish together). */
  cut?: number;
}

/** What the worker posts to its parent. */
export type WorkerOutput = { entries: Encoded[] } | { error: string };

const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "analyze-worker.ts");

/** A worker's start (thread, modules, language model), in reviews this thread analyses meanwhile. */
const STARTUP_REVIEWS = 2_000;

/**
 * The per-review step over `texts` on two threads, this one and a worker, with the entries in input
 * order and equal to those of `inThread` over all of them: a text's result does not depend on what
 * was read before it (see tokens.ts), so the threads need share nothing but the lexicon. This thread
 * takes the first share, the worker the rest. If the worker fails or does not answer in time, this
 * thread does its share.
 */
export async function analyzeWithWorker(
  texts: readonly string[],
  ratings: readonly number[],
  setup: WorkerSetup,
  inThread: (texts: readonly string[], ratings: readonly number[]) => Encoded[],
): Promise<{ entries: Encoded[]; worker: boolean }> {
  const n = texts.length;
  // Both threads busy for as long: cut = STARTUP + (n - cut).
  const cut = setup.cut ?? Math.min(n, Math.round((STARTUP_REVIEWS + n) / 2));
  const mine = (from: number, to: number) => inThread(texts.slice(from, to), ratings.slice(from, to));
  if (cut >= n || !existsSync(WORKER_FILE)) return { entries: mine(0, n), worker: false };
  const input: WorkerInput = {
    lexicon: setup.lexicon,
    modelRoot: setup.modelRoot,
    topics: setup.topics,
    texts: texts.slice(cut),
    ratings: ratings.slice(cut),
  };
  const worker = new Worker(WORKER_FILE, { workerData: input, execArgv: [] });
  // Listening before this thread's share: a message or error during it must not be missed.
  const answer = Promise.race([
    once(worker, "message").then(([message]) => message as WorkerOutput),
    once(worker, "error").then(([error]) => ({ error: String(error) }) as WorkerOutput),
  ]);
  const out = mine(0, cut);
  // Generous: the worker analyses thousands of reviews a second once its model is loaded.
  const timeout = AbortSignal.timeout(60_000 + 10 * n);
  const result = await Promise.race([
    answer,
    once(timeout, "abort").then((): WorkerOutput => ({ error: "the worker did not answer in time" })),
  ]);
  void worker.terminate();
  if ("entries" in result && result.entries.length === n - cut) {
    return { entries: [...out, ...result.entries], worker: true };
  }
  return { entries: [...out, ...mine(cut, n)], worker: false };
}

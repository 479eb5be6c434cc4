import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { TopicCatalogue } from "../../schemas/insights-data.ts";
import type { Lexicon } from "../../schemas/lexicon.ts";
import type { Encoded } from "../cache/codec.ts";

/** What the worker gets: the lexicon to build its analyser from, and its share. */
export interface WorkerInput {
  lexicon: Lexicon;
  /** The folder the learned model's files are read from (the project root). */
  modelRoot: string;
  topics: TopicCatalogue;
  texts: string[];
  ratings: number[];
  port: MessagePort;
  /** An Int32Array over this buffer: the worker sets it to DONE or FAILED once it has posted. */
  signal: SharedArrayBuffer;
}

export interface WorkerSetup {
  lexicon: Lexicon;
  modelRoot: string;
  topics: TopicCatalogue;
  /** For tests: how many texts this thread takes (default: so that both threads finish together). */
  cut?: number;
}

/** What the worker posts on its port. */
export type WorkerOutput = { entries: Encoded[] } | { error: string };

export const PENDING = 0;
export const DONE = 1;
export const FAILED = 2;

// Next to this file in the source tree; absent when this module is bundled (Astro's copy), and then
// everything is analysed in this thread.
const WORKER_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), "analyse-worker.ts");

/** A worker's start (thread, modules, language model), in reviews this thread analyses meanwhile. */
const STARTUP_REVIEWS = 2_000;

/**
 * The per-review step over `texts` on two threads, this one and a worker, with the entries in input
 * order and equal to those of `inThread` over all of them: a text's result does not depend on what
 * was read before it (see tokens.ts), so the threads need share nothing but the lexicon. This thread
 * takes the first share, the worker the rest. Synchronous like the build step that calls it: this
 * thread blocks on a shared flag and takes the worker's result with receiveMessageOnPort. If the
 * worker fails or does not answer in time, this thread does its share.
 */
export function analyseWithWorker(
  texts: readonly string[],
  ratings: readonly number[],
  setup: WorkerSetup,
  inThread: (text: string, rating: number) => Encoded,
): { entries: Encoded[]; worker: boolean } {
  const n = texts.length;
  // Both threads busy for as long: cut = STARTUP + (n - cut).
  const cut = setup.cut ?? Math.min(n, Math.round((STARTUP_REVIEWS + n) / 2));
  const mine = (from: number, to: number) =>
    texts.slice(from, to).map((t, i) => inThread(t, ratings[from + i] as number));
  if (cut >= n || !existsSync(WORKER_FILE)) return { entries: mine(0, n), worker: false };
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const input: WorkerInput = {
    lexicon: setup.lexicon,
    modelRoot: setup.modelRoot,
    topics: setup.topics,
    texts: texts.slice(cut),
    ratings: ratings.slice(cut),
    port: port2,
    signal,
  };
  const worker = new Worker(WORKER_FILE, { workerData: input, transferList: [port2], execArgv: [] });
  const out = mine(0, cut);
  // Generous: the worker analyses thousands of reviews a second once its model is loaded.
  const deadline = performance.now() + 60_000 + 10 * n;
  while (Atomics.load(flag, 0) === PENDING && performance.now() < deadline) {
    Atomics.wait(flag, 0, PENDING, Math.max(1, deadline - performance.now()));
  }
  const message = Atomics.load(flag, 0) === PENDING ? undefined : receiveMessageOnPort(port1)?.message;
  port1.close();
  void worker.terminate();
  const result = message as WorkerOutput | undefined;
  if (result && "entries" in result && result.entries.length === n - cut) {
    return { entries: [...out, ...result.entries], worker: true };
  }
  return { entries: [...out, ...mine(cut, n)], worker: false };
}

// The part of autocannon's programmatic API that `npm run bench:api` uses (the package ships no types).
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  /** hdr-histogram-percentiles-obj summary. */
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p2_5: number;
    p50: number;
    p75: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  interface RequestSpec {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request is sent; returns the request to send. */
    setupRequest?: (request: RequestSpec) => RequestSpec;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    timeout?: number;
    pipelining?: number;
    title?: string;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
  }

  interface Result {
    title?: string;
    url: string;
    duration: number;
    connections: number;
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
  export type { Histogram, Instance, Options, RequestSpec, Result };
}

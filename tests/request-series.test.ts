/**
 * The request counter and duration histogram kept as plain numbers (sidecar/src/metrics/
 * request-series.ts) against prom-client's own Counter and Histogram: fed the same observations,
 * the registry renders byte-identical Prometheus text, in both content types, and resets both.
 */
import fc from "fast-check";
import { Counter, Histogram, Registry, type RegistryContentType } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestSeries } from "../sidecar/src/metrics/request-series.ts";

const COUNT = { name: "http_requests_total", help: "Requests." };
const DURATION = { name: "http_request_duration_seconds", help: "Durations." };
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const KNOWN = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type Observation = { method: string; route: string; status: number; seconds: number };

function registry(contentType: RegistryContentType) {
  const created = new Registry<RegistryContentType>();
  created.setContentType(contentType);
  return created;
}

function registries(contentType: RegistryContentType) {
  const ours = registry(contentType);
  const series = new RequestSeries({ count: COUNT, duration: DURATION }, BUCKETS);
  series.register(ours);
  const theirs = registry(contentType);
  const labelNames = ["method", "route", "status"] as const;
  const counter = new Counter({ ...COUNT, labelNames, registers: [theirs] });
  const histogram = new Histogram({ ...DURATION, labelNames, buckets: BUCKETS, registers: [theirs] });
  const observe = ({ method, route, status, seconds }: Observation) => {
    series.observe(method, route, status, seconds);
    const labels = { method: KNOWN.has(method) ? method : "OTHER", route, status: String(status) };
    counter.inc(labels);
    histogram.observe(labels, seconds);
  };
  return { ours, theirs, observe };
}

const observation = fc.record({
  method: fc.constantFrom("GET", "HEAD", "POST", "OPTIONS", "DELETE", "PROPFIND", "BREW"),
  route: fc.constantFrom("/api/reviews/search", "/api/reviews/since/:date", "/mcp", "(unmatched)", 'odd"\\route\n'),
  status: fc.constantFrom(200, 204, 304, 400, 404, 405, 429, 500),
  // Exact bucket bounds included: a value equal to a bound counts in that bucket (le).
  seconds: fc.oneof(fc.double({ min: 0, max: 5, noNaN: true }), fc.constantFrom(...BUCKETS, 0, 2.5000001)),
});

describe("request series", () => {
  it.each<[string, RegistryContentType]>([
    ["Prometheus text", Registry.PROMETHEUS_CONTENT_TYPE],
    ["OpenMetrics", Registry.OPENMETRICS_CONTENT_TYPE],
  ])("renders what prom-client's Counter and Histogram render for the same observations (%s)", async (_name, type) => {
    await fc.assert(
      fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
        const { ours, theirs, observe } = registries(type);
        for (const one of observations) observe(one);
        expect(await ours.metrics()).toBe(await theirs.metrics());
      }),
      { numRuns: 200 },
    );
  });

  it("renders a known histogram line by line", async () => {
    const { ours, observe } = registries(Registry.PROMETHEUS_CONTENT_TYPE);
    observe({ method: "GET", route: "/a", status: 304, seconds: 0.0004 });
    observe({ method: "GET", route: "/a", status: 304, seconds: 0.003 });
    observe({ method: "BREW", route: "/a", status: 405, seconds: 3 });
    const text = await ours.metrics();
    expect(text).toContain('http_requests_total{method="GET",route="/a",status="304"} 2');
    expect(text).toContain('http_requests_total{method="OTHER",route="/a",status="405"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/a",status="304"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/a",status="304"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/a",status="304"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{le="2.5",method="OTHER",route="/a",status="405"} 0');
    expect(text).toContain('http_request_duration_seconds_bucket{le="+Inf",method="OTHER",route="/a",status="405"} 1');
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/a",status="304"} 2');
  });

  it("is emptied by the registry's reset, as prom-client's metrics are", async () => {
    const { ours, theirs, observe } = registries(Registry.PROMETHEUS_CONTENT_TYPE);
    observe({ method: "GET", route: "/a", status: 200, seconds: 0.01 });
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).not.toContain("/a");
    observe({ method: "HEAD", route: "/b", status: 200, seconds: 0.02 });
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it("answers the registry's JSON exposition with the same values", async () => {
    const { ours, theirs, observe } = registries(Registry.PROMETHEUS_CONTENT_TYPE);
    observe({ method: "GET", route: "/a", status: 200, seconds: 0.01 });
    observe({ method: "POST", route: "/mcp", status: 429, seconds: 0.2 });
    const strip = (metrics: Awaited<ReturnType<Registry["getMetricsAsJSON"]>>) =>
      metrics.map(({ name, help, type, values }) => ({
        name,
        help,
        type,
        values: values.map((one) => ({
          labels: one.labels,
          value: one.value,
          name: (one as { metricName?: string }).metricName,
        })),
      }));
    expect(strip(await ours.getMetricsAsJSON())).toEqual(strip(await theirs.getMetricsAsJSON()));
  });
});

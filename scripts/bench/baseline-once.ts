// Runs the baseline Astro build in its own process (cwd = the baseline project) and reports it.
const started = performance.now();
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { build } = await import("astro");
await build({ root: process.cwd(), logLevel: "error" });
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, peakMiB: process.resourceUsage().maxRSS / 1024 }));

export {};

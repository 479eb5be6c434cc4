// @ts-check
import { defineConfig } from "astro/config";

// The build script sets these: it builds into a temporary folder and swaps it in only on success.
export default defineConfig({
  output: "static",
  site: process.env.SITE_URL || "http://localhost:4321",
  outDir: process.env.ASTRO_OUT_DIR || "./dist",
  trailingSlash: "always",
  build: { format: "directory" },
  devToolbar: { enabled: false },
  fetchFile: null,
});

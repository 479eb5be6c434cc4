import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The yardstick of `bench:build`, measured in the same run on the same machine: a plain Astro 7
 * static build of the same reviews, loaded from one JSON file with fs + one zod parse, publishing
 * reviews.json and an index page that lists every review (as in the reference measurement).
 */
export function writeBaselineProject(dir: string, dataDir: string): void {
  mkdirSync(path.join(dir, "src/pages"), { recursive: true });
  const reviewsDir = path.join(dataDir, "reviews");
  const reviews = readdirSync(reviewsDir)
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(reviewsDir, name), "utf8")));
  writeFileSync(path.join(dir, "reviews.json"), JSON.stringify(reviews));
  writeFileSync(
    path.join(dir, "astro.config.mjs"),
    `import { defineConfig } from "astro/config";\nexport default defineConfig({ output: "static", fetchFile: null });\n`,
  );
  writeFileSync(
    path.join(dir, "src/data.ts"),
    [
      `import { readFileSync } from "node:fs";`,
      `import { z } from "zod";`,
      `import { ReviewSchema } from "${path.resolve("packages/shared/src/schemas/review.ts")}";`,
      `export const reviews = z.array(ReviewSchema).parse(JSON.parse(readFileSync(process.cwd() + "/reviews.json", "utf8")));`,
    ].join("\n"),
  );
  writeFileSync(
    path.join(dir, "src/pages/reviews.json.ts"),
    `import { reviews } from "../data.ts";\nexport const GET = () => new Response(JSON.stringify({ reviews }));\n`,
  );
  writeFileSync(
    path.join(dir, "src/pages/index.astro"),
    `---\nimport { reviews } from "../data.ts";\n---\n<html><body><ul>{reviews.map((r) => <li>{r.rating} {r.author.name}: {r.text}</li>)}</ul></body></html>\n`,
  );
}

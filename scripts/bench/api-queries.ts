import { readFileSync } from "node:fs";
import path from "node:path";
import { dayBefore } from "./shared-filters.ts";

/**
 * Search URLs never asked before: random combinations of a date window, a limit, a rating or a
 * minimum, a technician, a service, a sort and a text query (a word of the reviews, or a fragment of
 * 4 to 7 characters cut from one, so the text index meets needles it has not seen either); limits from
 * 1 to 40, so bodies average the typical search response. Seeded,
 * so every run asks the same sequence; each URL is distinct.
 */
export function newQueryPaths(distDir: string, count: number, seed = 1): string[] {
  const document = JSON.parse(readFileSync(path.join(distDir, "reviews.json"), "utf8")) as {
    business: { technicians: { name: string }[]; services: { id: string }[] };
    reviews: { date: string; text: string }[];
  };
  const { reviews, business } = document;
  const newest = reviews[0]?.date ?? "2026-01-01";
  const texts = reviews.slice(0, 2000).map((r) => r.text.toLowerCase());
  const words = [...new Set(texts.flatMap((t) => t.match(/[a-z]{4,}/g) ?? []))];
  let state = seed >>> 0;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const maybe = (p: number) => random() < p;
  const fragment = () => {
    const text = pick(texts);
    const length = 4 + Math.floor(random() * 4);
    const at = Math.floor(random() * Math.max(1, text.length - length));
    return text.slice(at, at + length);
  };
  const seen = new Set<string>();
  const paths: string[] = [];
  while (paths.length < count) {
    const params = new URLSearchParams();
    if (maybe(0.6)) {
      const end = Math.floor(random() * 1500);
      params.set("since", dayBefore(newest, end + 1 + Math.floor(random() * 400)));
      if (maybe(0.5)) params.set("until", dayBefore(newest, end));
    }
    const ratingFilter = random();
    if (ratingFilter < 0.3) params.set("rating", String(1 + Math.floor(random() * 5)));
    else if (ratingFilter < 0.5) params.set("min_rating", String(1 + Math.floor(random() * 5)));
    if (maybe(0.5)) params.set("query", maybe(0.7) ? pick(words) : fragment());
    if (maybe(0.2)) params.set("mentions_technician", pick(business.technicians).name.split(" ")[0] ?? "");
    if (maybe(0.2)) params.set("mentions_service", pick(business.services).id);
    if (maybe(0.3)) params.set("sort", pick(["oldest", "highest", "lowest"]));
    params.set("limit", String(1 + Math.floor(random() * 40)));
    const url = `/api/reviews/search?${params}`;
    if (seen.has(url)) continue;
    seen.add(url);
    paths.push(url);
  }
  return paths;
}

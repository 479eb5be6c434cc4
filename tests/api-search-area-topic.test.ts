/**
 * The area and topic filters and the facet counts of GET /api/reviews/search, over HTTP on the shared
 * build of the sample data: topics come from the build's insights, so their answers are checked
 * against the published insights document and the static topic listings.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { InsightsDocument } from "@riverbend/shared/schemas/insights.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, inject, it } from "vitest";
import { expectInvalidRequest, get, servedReviews, useApiServer } from "./support/api-server.ts";

useApiServer();

const dist = () => inject("sampleDist");
const insights = (): InsightsDocument => JSON.parse(readFileSync(path.join(dist(), "insights.json"), "utf8"));

type Body = {
  total: number;
  reviews: Review[];
  next_cursor: string | null;
  facets?: Record<string, Record<string, number>>;
};

async function all(query: string): Promise<{ total: number; ids: string[] }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = 0;
  do {
    const response = await get(`/api/reviews/search?${query}&limit=100${cursor ? `&cursor=${cursor}` : ""}`);
    expect(response.status, query).toBe(200);
    const body = (await response.json()) as Body;
    total = body.total;
    ids.push(...body.reviews.map((r) => r.id));
    cursor = body.next_cursor;
  } while (cursor);
  return { total, ids };
}

/** The review ids of every page of a static listing of the build. */
function staticListing(folder: string): string[] {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const file = path.join(dist(), folder, page === 1 ? "" : `page/${page}`, "index.html");
    let html: string;
    try {
      html = readFileSync(file, "utf8");
    } catch {
      return ids;
    }
    const list = html.slice(html.indexOf('id="review-list"'), html.indexOf('id="review-pager"'));
    for (const match of list.matchAll(/<article class="review" id="review-([^"]+)"/g)) ids.push(match[1] as string);
  }
}

describe("the area filter", () => {
  it("matches the reviews of jobs in that area, whatever the case of the id", async () => {
    const expected = servedReviews()
      .filter((r) => r.service_area === "folsom")
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await all("area=folsom")).ids).toEqual(expected);
    expect((await all("area=FOLSOM")).ids).toEqual(expected);
  });

  it("combines with the other filters (AND)", async () => {
    const expected = servedReviews()
      .filter((r) => r.service_area === "sacramento" && r.rating >= 4 && r.technicians.includes("Marcus B."))
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(0);
    expect((await all("area=sacramento&min_rating=4&mentions_technician=marcus-bell")).ids).toEqual(expected);
  });

  it("answers an unknown area with 400 naming the valid ids and the closest one", async () => {
    const response = await get("/api/reviews/search?area=folsm");
    expect(await expectInvalidRequest(response.clone())).toEqual(["area"]);
    const { issues } = await response.json();
    expect(issues[0].code).toBe("unknown_value");
    expect(issues[0].message).toContain('did you mean "folsom"?');
    expect(issues[0].message).toContain("valid values: sacramento, elk-grove, folsom");
  });
});

describe("the topic filter", () => {
  it("matches the reviews the build's insights file under the topic, as its static listing does", async () => {
    const topics = insights().topics;
    expect(topics.length).toBeGreaterThan(1);
    for (const topic of topics) {
      const found = await all(`topic=${topic.id}`);
      expect(found.total, topic.id).toBe(topic.reviews);
      expect(found.ids, topic.id).toEqual(staticListing(`reviews/topic/${topic.id}`));
    }
  });

  it("combines with area, rating and words (AND)", async () => {
    const topic = insights().topics[0]?.id as string;
    const inTopic = new Set(staticListing(`reviews/topic/${topic}`));
    const reviews = servedReviews();
    const first = reviews.find((r) => inTopic.has(r.id)) as Review;
    const word = (first.text ?? "").split(/\W+/).find((w) => w.length > 4) as string;
    const expected = reviews
      .filter((r) => inTopic.has(r.id) && r.service_area === first.service_area && r.rating === first.rating)
      .filter((r) => `${r.title ?? ""}\u0000${r.text ?? ""}`.toLowerCase().includes(word.toLowerCase()))
      .map((r) => r.id);
    expect(expected).toContain(first.id);
    const query = `topic=${topic}&area=${first.service_area}&rating=${first.rating}&query=${encodeURIComponent(word)}`;
    expect((await all(query)).ids).toEqual(expected);
  });

  it("answers an unknown topic with 400 naming the valid ids and the closest one", async () => {
    const topic = insights().topics[0]?.id as string;
    const typo = `${topic.slice(0, -1)}x`;
    const response = await get(`/api/reviews/search?topic=${typo}`);
    expect(await expectInvalidRequest(response.clone())).toEqual(["topic"]);
    const { issues } = await response.json();
    expect(issues[0].message).toContain(`did you mean "${topic}"?`);
    for (const t of insights().topics) expect(issues[0].message).toContain(t.id);
  });

  it("reports an unknown area and an unknown topic together", async () => {
    expect(await expectInvalidRequest(await get("/api/reviews/search?area=atlantis&topic=nothing-here"))).toEqual([
      "area",
      "topic",
    ]);
  });
});

describe("facet counts", () => {
  it("are absent unless asked for, and refuse a value other than true or false", async () => {
    const plain = (await (await get("/api/reviews/search?limit=1")).json()) as Body;
    expect(plain.facets).toBeUndefined();
    const off = (await (await get("/api/reviews/search?limit=1&facets=false")).json()) as Body;
    expect(off.facets).toBeUndefined();
    expect(await expectInvalidRequest(await get("/api/reviews/search?facets=yes"))).toEqual(["facets"]);
  });

  it("count, per value, what the search matches with that value in place of its filter's current one", async () => {
    const base = "rating=1&area=sacramento";
    const response = await get(`/api/reviews/search?${base}&facets=true&limit=1`);
    const body = (await response.json()) as Body;
    const facets = body.facets as Record<string, Record<string, number>>;
    expect(Object.keys(facets)).toEqual(["rating", "technician", "service", "area", "topic"]);
    const checks: [kind: string, replace: (value: string) => string][] = [
      ["rating", (v) => `rating=${v}&area=sacramento`],
      ["area", (v) => `rating=1&area=${v}`],
      ["technician", (v) => `${base}&mentions_technician=${v}`],
      ["service", (v) => `${base}&mentions_service=${v}`],
      ["topic", (v) => `${base}&topic=${v}`],
    ];
    for (const [kind, replace] of checks) {
      const counts = facets[kind] as Record<string, number>;
      expect(Object.keys(counts).length, kind).toBeGreaterThan(0);
      for (const [value, count] of Object.entries(counts)) {
        const { total } = (await (await get(`/api/reviews/search?${replace(value)}&limit=1`)).json()) as Body;
        expect(count, `${kind}=${value}`).toBe(total);
      }
    }
    // The selection's own values are counted as the selection itself.
    expect(facets.rating?.["1"]).toBe(body.total);
    expect(facets.area?.sacramento).toBe(body.total);
  });

  it("follow a text query, and a cursor works with or without them", async () => {
    const body = (await (await get("/api/reviews/search?query=drain&facets=true&limit=2")).json()) as Body;
    const sum = Object.values(body.facets?.rating ?? {}).reduce((a, b) => a + b, 0);
    expect(sum).toBe(body.total);
    const next = await get(`/api/reviews/search?query=drain&limit=2&cursor=${body.next_cursor}`);
    expect(next.status).toBe(200);
  });
});

/**
 * The review browser's filters and counts in Debian's Chromium against the real sidecar
 * (support-site.ts): area and topic combined with the other filters through the search API, option
 * counts that follow the selection, and without JavaScript each static listing's counts of its own
 * selection, with links that say where they lead.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browser, open, useSite } from "./support-site.ts";

useSite();

interface Answer {
  total: number;
  reviews: { id: string }[];
  facets: Record<string, Record<string, number>>;
}

const api = async (query: string): Promise<Answer> =>
  (await (await fetch(`${base}/api/reviews/search?${query}`)).json()) as Answer;

/** How long the page may take to answer under load (searches wait 350 ms for typing to stop). */
const SETTLE = { timeout: 15_000 };

/** The options of a select of the search form: value, label and the count in brackets. */
const optionsOf = (page: Page, name: string) =>
  page.locator(`#review-filter-${name} option`).evaluateAll((nodes) =>
    (nodes as HTMLOptionElement[])
      .filter((o) => o.value !== "")
      .map((o) => ({
        value: o.value,
        label: o.dataset.label ?? "",
        count: Number(/\((\d+)\)$/.exec(o.textContent ?? "")?.[1] ?? Number.NaN),
      })),
  );

async function expectCountsOf(page: Page, selection: string): Promise<void> {
  for (const name of ["rating", "technician", "service", "area", "topic"]) {
    const counts = (await api(`${selection}&limit=1&facets=true`)).facets[name] ?? {};
    await expect
      .poll(async () => Object.fromEntries((await optionsOf(page, name)).map((o) => [o.value, o.count])), {
        message: name,
        ...SETTLE,
      })
      .toEqual(counts);
  }
}

describe("the review browser with JavaScript", () => {
  it("combines area and topic with rating and words through the search API", async () => {
    const { page, problems } = await open("/reviews/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    const topics = await optionsOf(page, "topic");
    expect(topics.length).toBeGreaterThan(0);
    // The busiest area and topic, so that their combination holds reviews.
    const { facets } = await api("limit=1&facets=true");
    const top = (counts: Record<string, number>) =>
      Object.entries(counts).sort(([, a], [, b]) => b - a)[0]?.[0] as string;
    const area = top(facets.area ?? {});
    const topic = top((await api(`area=${area}&limit=1&facets=true`)).facets.topic ?? {});
    await page.selectOption("#review-filter-area", area);
    await page.selectOption("#review-filter-topic", topic);
    await expect.poll(() => page.locator("#review-browser").getAttribute("data-state"), SETTLE).toBe("results");
    const expected = await api(`area=${area}&topic=${topic}&limit=50`);
    expect(expected.total).toBeGreaterThan(0);
    await expect
      .poll(() => page.locator("#review-list article.review").evaluateAll((a) => a.map((e) => e.id.slice(7))), SETTLE)
      .toEqual(expected.reviews.map((r) => r.id));
    const areaLabel = (await optionsOf(page, "area")).find((o) => o.value === area)?.label as string;
    const topicLabel = topics.find((o) => o.value === topic)?.label as string;
    expect(await page.locator("h1").textContent()).toBe(`Reviews: ${areaLabel}, ${topicLabel}`);
    await expect.poll(() => page.locator("#review-status").textContent(), SETTLE).toContain(`${expected.total} review`);
    expect(new URL(page.url()).searchParams.get("topic")).toBe(topic);

    // A rating too: fewer or as many, each of that rating.
    const rating = Object.entries((await api(`area=${area}&topic=${topic}&limit=1&facets=true`)).facets.rating ?? {})
      .filter(([, n]) => n > 0)
      .map(([r]) => r)[0] as string;
    await page.selectOption("#review-filter-rating", rating);
    const narrowed = await api(`area=${area}&topic=${topic}&rating=${rating}&limit=50`);
    await expect
      .poll(() => page.locator("#review-list article.review").evaluateAll((a) => a.map((e) => e.id.slice(7))), SETTLE)
      .toEqual(narrowed.reviews.map((r) => r.id));
    const stars = await page
      .locator("#review-list article.review .stars")
      .evaluateAll((s) => s.map((e) => e.getAttribute("aria-label")));
    expect(new Set(stars)).toEqual(new Set([`${rating} out of 5 stars`]));
    // A search superseded by the next one is aborted on purpose.
    expect(problems.filter((p) => !p.endsWith("net::ERR_ABORTED"))).toEqual([]);
    await page.close();
  });

  it("shows beside each option the count of the current selection with that option", async () => {
    const { page, problems } = await open("/reviews/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    await expectCountsOf(page, "");
    await page.selectOption("#review-filter-rating", "1");
    await expect.poll(() => page.locator("#review-browser").getAttribute("data-state"), SETTLE).toBe("results");
    await expectCountsOf(page, "rating=1");
    // Checked against plain searches, not only the facets: a technician's count is their 1-star reviews,
    // and another rating's count is what choosing it instead would give.
    const technician = (await optionsOf(page, "technician")).find((o) => o.count > 0);
    expect(technician).toBeDefined();
    const { total } = await api(`rating=1&mentions_technician=${technician?.value}&limit=1`);
    expect(technician?.count).toBe(total);
    expect((await api(`mentions_technician=${technician?.value}&limit=1`)).total).toBeGreaterThan(total);
    const five = (await optionsOf(page, "rating")).find((o) => o.value === "5");
    expect(five?.count).toBe((await api("rating=5&limit=1")).total);

    await page.fill("#review-filter-query", "leak");
    await expect.poll(() => page.locator("#review-status").textContent(), SETTLE).toContain("“leak”");
    await expectCountsOf(page, "rating=1&query=leak");
    // A search superseded by the next one is aborted on purpose.
    expect(problems.filter((p) => !p.endsWith("net::ERR_ABORTED"))).toEqual([]);
    await page.close();
  });

  it("starts a filtered listing's form from its filter, with that selection's counts", async () => {
    const { page } = await open("/reviews/area/folsom/");
    await page.locator('#review-browser[data-enhanced="true"]').waitFor();
    expect(await page.locator("#review-filter-area").inputValue()).toBe("folsom");
    await expectCountsOf(page, "area=folsom");
    await page.close();
  });
});

describe("the review browser without JavaScript", () => {
  it("shows on the 1-star listing each technician's 1-star reviews, and says the link opens all of theirs", async () => {
    const noJs = await browser.newContext({ baseURL: base, javaScriptEnabled: false });
    try {
      const { page } = await open("/reviews/rating/1/", noJs);
      const link = page.locator('#review-filters a[data-filter-kind="technician"][data-filter-value="marcus-bell"]');
      const oneStar = (await api("rating=1&mentions_technician=marcus-bell&limit=1")).total;
      const all = (await api("mentions_technician=marcus-bell&limit=1")).total;
      expect(all).toBeGreaterThan(oneStar);
      expect(await link.locator(".count").textContent()).toBe(`(${oneStar})`);
      expect(await link.locator(".leads").textContent()).toBe(`· all ${all}`);
      expect(await page.locator("#review-filters > p.meta").textContent()).toContain(
        "a link to another kind of filter opens all of its reviews",
      );
      // Another rating is what choosing it gives: its own listing, which the link opens.
      const five = page.locator('#review-filters a[data-filter-kind="rating"][data-filter-value="5"]');
      expect(await five.locator(".count").textContent()).toBe(`(${(await api("rating=5&limit=1")).total})`);
      expect(await five.locator(".leads").count()).toBe(0);
      // Area and topic counts too, each within the 1-star reviews.
      for (const kind of ["area", "topic"]) {
        const option = page.locator(`#review-filters a[data-filter-kind="${kind}"]`).first();
        const value = await option.getAttribute("data-filter-value");
        const within = (await api(`rating=1&${kind}=${value}&limit=1`)).total;
        expect(await option.locator(".count").textContent(), kind).toBe(`(${within})`);
      }
      await link.click();
      await page.waitForURL("**/reviews/technician/marcus-bell/");
      expect(await page.locator("#review-list article.review").count()).toBe(Math.min(50, all));
      // The pager is there; it links on when the listing has more than one page.
      expect(await page.locator("#review-pager").count()).toBe(1);
      if (all > 50) {
        expect(await page.locator("#review-pager a[rel=next]").getAttribute("href")).toBe(
          "/reviews/technician/marcus-bell/page/2/",
        );
      }
    } finally {
      await noJs.close();
    }
  });
});

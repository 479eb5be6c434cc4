/**
 * The sample dataset in data/ meets the product requirements for demo data: enough reviews over
 * enough time, a realistic (J-shaped) rating distribution, owner replies and varied lengths,
 * no recycled sentences, structured fields that agree with what the texts say, distinct authors.
 * Failure messages name the offending review ids; the writing rules are in the review-writing guide.
 *
 * The last block plants defects in copies of real reviews to prove each text rule can fail.
 */

import type { Review } from "@riverbend/shared/schemas/review.ts";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../src/data/load-dataset.ts";
import {
  customerTexts,
  findRepeatedSentences,
  MIN_UNIQUE_SENTENCE_WORDS,
  missingServices,
  SERVICE_CUES,
  splitSentences,
  technicianFirstNames,
  unlistedTechnicians,
  withoutOwnerSignOff,
  wordCount,
} from "./support/sample-data/rules.ts";

const { business, reviews } = loadDataset("data");

/** "Some" short and long texts: more than a lone outlier. */
const SOME = 3;
const MAX_REPEATED_AUTHOR_NAMES = 5;

function ids(list: readonly Review[]): string {
  return list.map((review) => review.id).join(", ");
}

function share(count: number): string {
  return `${((100 * count) / reviews.length).toFixed(1)}%`;
}

describe("sample dataset (data/)", () => {
  it("has at least 250 reviews over at least 3 years, and a catalogue of realistic size", () => {
    expect(reviews.length, "number of reviews").toBeGreaterThanOrEqual(250);

    const dates = reviews.map((review) => review.date).sort();
    const first = dates[0] ?? "";
    const last = dates[dates.length - 1] ?? "";
    const threeYearsLater = `${Number(first.slice(0, 4)) + 3}${first.slice(4)}`;
    expect(last >= threeYearsLater, `reviews run from ${first} to ${last}; they must span 3 years`).toBe(true);

    expect(business.technicians.length, "technicians in business.json").toBeGreaterThanOrEqual(6);
    expect(business.technicians.length, "technicians in business.json").toBeLessThanOrEqual(10);
    expect(business.services.length, "services in business.json").toBeGreaterThanOrEqual(10);
    expect(business.services.length, "services in business.json").toBeLessThanOrEqual(15);
    expect(business.service_areas.length, "service areas in business.json").toBeGreaterThanOrEqual(8);
    expect(business.service_areas.length, "service areas in business.json").toBeLessThanOrEqual(12);
  });

  it("has a J-shaped rating distribution: 5 stars most common, then 1 star ahead of 2 and 3 stars", () => {
    const counts = new Map<number, number>([1, 2, 3, 4, 5].map((stars) => [stars, 0]));
    for (const review of reviews) counts.set(review.rating, (counts.get(review.rating) ?? 0) + 1);
    const count = (stars: number) => counts.get(stars) ?? 0;
    const summary = [1, 2, 3, 4, 5].map((stars) => `${stars}★ ${count(stars)}`).join(", ");

    for (const stars of [1, 2, 3, 4]) {
      expect(count(5) > count(stars), `5 stars must be the most common rating (${summary})`).toBe(true);
    }
    expect(count(1) > count(2), `1 star must be more common than 2 stars (${summary})`).toBe(true);
    expect(count(1) > count(3), `1 star must be more common than 3 stars (${summary})`).toBe(true);
    expect(
      count(1) / reviews.length,
      `1-star share is ${share(count(1))}; at least 5% (${summary})`,
    ).toBeGreaterThanOrEqual(0.05);
  });

  it("has owner replies on about a third of the reviews and texts of very different lengths", () => {
    const replied = reviews.filter((review) => review.response !== undefined);
    const replyShare = `${replied.length} of ${reviews.length} reviews (${share(replied.length)}) have an owner reply`;
    expect(replied.length / reviews.length, `${replyShare}; 25% to 45% wanted`).toBeGreaterThanOrEqual(0.25);
    expect(replied.length / reviews.length, `${replyShare}; 25% to 45% wanted`).toBeLessThanOrEqual(0.45);

    const short = reviews.filter((review) => wordCount(review.text ?? "") < 8);
    const long = reviews.filter((review) => wordCount(review.text ?? "") > 150);
    expect(short.length, `texts under 8 words: ${ids(short) || "none"}`).toBeGreaterThanOrEqual(SOME);
    expect(long.length, `texts over 150 words: ${ids(long) || "none"}`).toBeGreaterThanOrEqual(SOME);
  });

  it(`repeats no sentence of ${MIN_UNIQUE_SENTENCE_WORDS}+ words across reviews (title, text and reply)`, () => {
    const sentencesSplit = reviews.reduce(
      (total, review) => total + [...customerTexts(review), review.response?.text ?? ""].flatMap(splitSentences).length,
      0,
    );
    expect(sentencesSplit, "sentences found by the splitter").toBeGreaterThan(1000);

    const { compared, repeats } = findRepeatedSentences(
      reviews.map((review) => ({
        id: review.id,
        texts: [...customerTexts(review), ...(review.response ? [review.response.text] : [])],
      })),
    );
    expect(compared, `sentences of ${MIN_UNIQUE_SENTENCE_WORDS}+ words compared`).toBeGreaterThan(1000);
    expect(repeats, `sentences used in more than one review:\n${repeats.join("\n")}`).toEqual([]);
  });

  it(`repeats no sentence of ${MIN_UNIQUE_SENTENCE_WORDS}+ words across the owner replies of different reviews`, () => {
    const { compared, repeats } = findRepeatedSentences(
      reviews.flatMap((review) => (review.response ? [{ id: review.id, texts: [review.response.text] }] : [])),
    );
    expect(compared, `reply sentences of ${MIN_UNIQUE_SENTENCE_WORDS}+ words compared`).toBeGreaterThan(150);
    expect(repeats, `sentences used in the replies to more than one review:\n${repeats.join("\n")}`).toEqual([]);
  });

  it("lists every technician a review names (by first name) in its technicians field", () => {
    const byFirstName = technicianFirstNames(business);
    expect([...byFirstName.keys()].sort(), "technician first names").toEqual(
      expect.arrayContaining(["Bill", "Chris", "Dana", "Jake", "Kevin", "Luis", "Marcus", "Priya"]),
    );
    expect(byFirstName.get("Chris"), "both Chris").toHaveLength(2);

    const problems = reviews.flatMap((review) => unlistedTechnicians(review, byFirstName));
    const naming = reviews.filter((review) =>
      customerTexts(review).some((text) => [...byFirstName.keys()].some((first) => text.includes(first))),
    );
    expect(naming.length, "reviews that name a technician").toBeGreaterThan(100);
    expect(problems, `technicians named but not listed:\n${problems.join("\n")}`).toEqual([]);
  });

  it("lists the services its title and text mention (cue words of the writing guide)", () => {
    const serviceIds = new Set(business.services.map((service) => service.id));
    for (const { cue, accepts } of SERVICE_CUES) {
      for (const id of accepts) expect(serviceIds.has(id), `cue "${cue}" accepts unknown service ${id}`).toBe(true);
    }

    const cued = reviews.filter((review) =>
      SERVICE_CUES.some(({ pattern }) => pattern.test(customerTexts(review).join("\n"))),
    );
    expect(cued.length, "reviews with a service cue word").toBeGreaterThan(100);
    const problems = reviews.flatMap((review) => missingServices(review));
    expect(problems, `services mentioned but not listed:\n${problems.join("\n")}`).toEqual([]);
  });

  it(`has distinct authors: at most ${MAX_REPEATED_AUTHOR_NAMES} names used for more than one review`, () => {
    const byName = new Map<string, Review[]>();
    for (const review of reviews) byName.set(review.author.name, [...(byName.get(review.author.name) ?? []), review]);
    expect(byName.size, "distinct author names").toBeGreaterThan(200);

    const repeated = [...byName].filter(([, list]) => list.length > 1);
    const lines = repeated.map(([name, list]) => `${name}: ${ids(list)}`);
    expect(
      repeated.length,
      `${repeated.length} author names are used more than once:\n${lines.join("\n")}`,
    ).toBeLessThanOrEqual(MAX_REPEATED_AUTHOR_NAMES);
  });
});

describe("sample data rules catch planted defects", () => {
  const base: Review = {
    id: "2025-03-02-planted",
    date: "2025-03-02",
    rating: 5,
    text: "Fine.",
    author: { name: "Planted P." },
    verified: true,
    verification: { method: "job_record" },
    source: "direct",
    technicians: [],
    services: ["drain-cleaning"],
    service_area: "sacramento",
  };
  const planted = (changes: Partial<Review>): Review => ({ ...base, ...changes });
  const byFirstName = technicianFirstNames(business);

  it("finds a long sentence shared by two reviews despite case, spacing and end punctuation", () => {
    const sentence = "The water pressure regulator in the garage was failing again";
    const { repeats } = findRepeatedSentences([
      { id: "a", texts: [`Great job. ${sentence}!`] },
      { id: "b", texts: [`"${sentence.toUpperCase()}..."\nThanks`] },
      { id: "c", texts: ["Great job. Great job."] },
    ]);
    expect(repeats).toEqual([`"${sentence.toLowerCase()}" in a, b`]);
    expect(findRepeatedSentences([{ id: "a", texts: [`${sentence}. ${sentence}`] }]).repeats).toEqual([]);
  });

  it("finds a technician named but not listed, including Bill at a sentence start and in a reply", () => {
    expect(unlistedTechnicians(planted({ text: "Priya found the slab leak." }), byFirstName)).toHaveLength(1);
    expect(unlistedTechnicians(planted({ text: "Fixed. Bill was high though." }), byFirstName)).toHaveLength(1);
    expect(unlistedTechnicians(planted({ text: "The bill was high." }), byFirstName)).toEqual([]);
    expect(unlistedTechnicians(planted({ text: "Chris was great." }), byFirstName)).toHaveLength(1);
    expect(unlistedTechnicians(planted({ technicians: ["Chris A."], text: "Chris was great." }), byFirstName)).toEqual(
      [],
    );
    const reply = (text: string) => planted({ response: { date: base.date, text } });
    expect(unlistedTechnicians(reply("Thanks for the kind words.\n\n- Dana"), byFirstName)).toEqual([]);
    expect(unlistedTechnicians(reply("Thanks! — Dana W., co-owner"), byFirstName)).toEqual([]);
    expect(unlistedTechnicians(reply("Please ask for Dana. - the Riverbend office"), byFirstName)).toHaveLength(1);
    expect(unlistedTechnicians(reply("Marcus says thanks. – Dana"), byFirstName)).toHaveLength(1);
    expect(withoutOwnerSignOff("Sorry again. Warmly, Dana")).toBe("Sorry again. ");
  });

  it("finds a service cue word whose service is not listed, in the title or text only", () => {
    const text = (t: string, services: string[], title?: string) =>
      missingServices(planted({ text: t, services, ...(title ? { title } : {}) }));
    expect(text("New tankless unit, great.", ["water-heater-installation"])).toHaveLength(1);
    expect(text("New tankless unit, great.", ["tankless-water-heater"])).toEqual([]);
    expect(text("Fine.", ["drain-cleaning"], "Water heater died")).toHaveLength(1);
    expect(text("They repiped the house.", ["leak-detection"])).toHaveLength(1);
    expect(text("Tested the backflow device.", ["faucet-fixture"])).toHaveLength(1);
    expect(
      missingServices(
        planted({
          text: "Fine.",
          services: ["drain-cleaning"],
          response: { date: base.date, text: "Enjoy the new sump!" },
        }),
      ),
    ).toEqual([]);
  });
});

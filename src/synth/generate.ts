import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";
import { pick, seededRandom } from "./random.ts";

// Synthetic reviews exist only for benchmarks and scale tests, so they are assembled from parts;
// the sample data under data/ is written by hand.
const OPENINGS = [
  "Called on a weekday morning about a problem with the",
  "We had trouble with the",
  "Booked online for the",
  "Second time using them, this time for the",
  "Landlord here, tenant reported an issue with the",
];
const FIXTURES = ["kitchen sink", "water heater", "main line", "guest bathroom", "laundry drain", "shower valve"];
const PRAISE = [
  "arrived inside the window and explained everything clearly.",
  "was polite, wore shoe covers and cleaned up afterwards.",
  "fixed it the first time and the price matched the quote.",
  "called ahead and walked us through the options.",
];
const COMPLAINTS = [
  "showed up two hours late without a call.",
  "charged more than the quote and never explained why.",
  "left a mess and the leak came back a week later.",
  "was rushed and the office never returned my calls.",
];
const CLOSINGS = ["Would use again.", "Fair enough overall.", "Not impressed.", "Thanks to the whole crew.", ""];
const FIRST = ["Alex", "Sam", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Drew", "Quinn"];
const RATINGS = [5, 5, 5, 5, 5, 5, 5, 4, 4, 3, 2, 1, 1] as const;
const METHODS = ["job_record", "job_record", "invoice", "invitation"] as const;

export interface SynthOptions {
  reviews: number;
  seed: number;
  /** Last date reviews may carry; fixed so the output does not depend on the day it runs. */
  endDate: string;
  years: number;
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function* generateReviews(business: Business, options: SynthOptions): Generator<Review> {
  const random = seededRandom(options.seed);
  const end = Date.parse(`${options.endDate}T00:00:00Z`);
  const span = options.years * 365 * 86_400_000;
  const width = String(options.reviews).length;
  for (let i = 0; i < options.reviews; i++) {
    const date = isoDate(end - Math.floor(random() * span));
    const rating = pick(random, RATINGS);
    const technician = pick(random, business.technicians);
    const service = pick(random, business.services);
    const area = pick(random, business.service_areas);
    const good = rating >= 4;
    const sentences = [
      `${pick(random, OPENINGS)} ${pick(random, FIXTURES)}.`,
      `${technician.name.split(" ")[0]} ${pick(random, good ? PRAISE : COMPLAINTS)}`,
    ];
    if (random() < 0.4) sentences.push(`${technician.name.split(" ")[0]} ${pick(random, good ? COMPLAINTS : PRAISE)}`);
    const closing = pick(random, CLOSINGS);
    if (closing) sentences.push(closing);
    const author = `${pick(random, FIRST)} ${String.fromCharCode(65 + Math.floor(random() * 26))}.`;
    const id = `${date}-synth-${String(i).padStart(width, "0")}`;
    const review: Review = {
      id,
      date,
      rating,
      text: sentences.join(" "),
      author: { name: author, locality: area.name },
      verified: true,
      verification: { method: pick(random, METHODS) },
      source: "direct",
      technicians: Number(date.slice(0, 4)) >= technician.since ? [technician.name] : [],
      services: [service.id],
      service_area: area.id,
    };
    if (random() < 0.3) {
      review.response = { date, text: `Thank you for the feedback on job ${i}; we have shared it with the team.` };
    }
    yield review;
  }
}

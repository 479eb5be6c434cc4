import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";

/**
 * Words that tie a number in editor text to an aspect or a polarity. Only numbers in a sentence
 * with an aspect word are checked against that aspect: "arrived within 2 hours" is not a figure.
 */
export const ASPECT_WORDS: Record<AspectId, RegExp> = {
  punctuality: /\b(?:punctual\w*|on[- ]time|late(?:ness)?|early|arriv\w*|window|no[- ]shows?)\b/gi,
  responsiveness: /\b(?:responsive\w*|respond\w*|response|same[- ]day|emergenc\w*|fast|quick\w*|prompt\w*)\b/gi,
  price: /\b(?:pric\w*|costs?|fees?|quotes?|bills?|charg\w*|expensive|afford\w*|value)\b/gi,
  professionalism: /\b(?:professional\w*|courte\w*|polite\w*|honest\w*|friendl\w*|respect\w*|upsell\w*|rude\w*)\b/gi,
  quality: /\b(?:quality|workmanship|first time|done right|lasting|came back)\b/gi,
  communication: /\b(?:communicat\w*|explain\w*|informed|updates?|follow[- ]?ups?)\b/gi,
  // Not "cleaning": "drain cleaning" is a service, not a judgement of tidiness.
  cleanliness: /\b(?:clean|cleaned|cleans|clean-?up|cleanliness|tidy|tidi\w*|mess\w*|shoe covers|drop cloths?)\b/gi,
};

export const POSITIVE_WORDS =
  /\b(?:positive\w*|prais\w*|happy|satisfied|pleased|good|great|fair|on[- ]time|punctual|clean|tidy|recommend\w*|lik\w*|lov\w*)\b/gi;

export const NEGATIVE_WORDS =
  /\b(?:negative\w*|complain\w*|complaints?|unhappy|dissatisfied|critical|bad|poor|concerns?|late|mess\w*|rude|overcharg\w*|expensive|problems?)\b/gi;

export const MENTION_WORDS = /\b(?:mention\w*|talk\w* about|bring up|discuss\w*)\b/gi;

/** Positions of every match of `pattern` in `text`. */
export function positions(pattern: RegExp, text: string): number[] {
  return [...text.matchAll(new RegExp(pattern.source, pattern.flags))].map((m) => m.index);
}

/** The key whose nearest occurrence is closest to `at` (ties: earlier key), or undefined for none. */
export function nearest<K>(at: number, occurrences: Iterable<[K, number[]]>): K | undefined {
  let best: K | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const [key, list] of occurrences) {
    for (const position of list) {
      const d = Math.abs(position - at);
      if (d < distance) {
        best = key;
        distance = d;
      }
    }
  }
  return best;
}

/**
 * Text rules for the hand-written sample reviews (see the writing guide): each function returns
 * the offenders it finds, so tests/sample-data.test.ts can both assert "none" on the real data and
 * prove on planted defects that a rule can fail.
 */
import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { Review } from "@riverbend/shared/schemas/review.ts";

/** Sentences with at least this many words must be unique across reviews. */
export const MIN_UNIQUE_SENTENCE_WORDS = 8;

export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => word.length > 0).length;
}

/** Lower case, single spaces, no punctuation (or quotes, dashes, brackets) at either end. */
export function normaliseSentence(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/\s+/gu, " ")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
}

/** Splits at . ! ? and line breaks; returns normalised, non-empty sentences. */
export function splitSentences(text: string): string[] {
  return text
    .split(/[.!?\r\n]+/u)
    .map(normaliseSentence)
    .filter((sentence) => sentence.length > 0);
}

export interface SentenceSource {
  /** Review id the texts belong to. */
  id: string;
  texts: readonly string[];
}

export interface RepeatedSentences {
  /** Number of sentences of MIN_UNIQUE_SENTENCE_WORDS or more words that were compared. */
  compared: number;
  /** One line per sentence found in two or more different reviews, naming the sentence and the ids. */
  repeats: string[];
}

/** Long sentences that occur in more than one source (repeats inside one source are allowed). */
export function findRepeatedSentences(sources: readonly SentenceSource[]): RepeatedSentences {
  const seenIn = new Map<string, Set<string>>();
  let compared = 0;
  for (const source of sources) {
    for (const text of source.texts) {
      for (const sentence of splitSentences(text)) {
        if (wordCount(sentence) < MIN_UNIQUE_SENTENCE_WORDS) continue;
        compared++;
        const ids = seenIn.get(sentence) ?? new Set<string>();
        ids.add(source.id);
        seenIn.set(sentence, ids);
      }
    }
  }
  const repeats = [...seenIn]
    .filter(([, ids]) => ids.size > 1)
    .map(([sentence, ids]) => `"${sentence}" in ${[...ids].sort().join(", ")}`);
  return { compared, repeats };
}

/** Every text of a review that counts as the review's own words (not the owner's reply). */
export function customerTexts(review: Review): string[] {
  return [review.title, review.text].filter((text): text is string => text !== undefined);
}

/** First name -> technician display names with that first name ("Chris" -> ["Chris M.", "Chris A."]). */
export function technicianFirstNames(business: Business): Map<string, string[]> {
  const byFirstName = new Map<string, string[]>();
  for (const technician of business.technicians) {
    const first = technician.name.split(/\s+/u)[0] ?? technician.name;
    byFirstName.set(first, [...(byFirstName.get(first) ?? []), technician.name]);
  }
  return byFirstName;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

/** First names that appear as a capitalised whole word ("Bill" at a sentence start counts too). */
export function namedFirstNames(text: string, firstNames: Iterable<string>): string[] {
  return [...firstNames].filter((first) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(first)}(?![\\p{L}\\p{N}])`, "u").test(text),
  );
}

/** The owner's name in a reply's sign-off: "- Dana", "— Dana W., co-owner", "Warmly, Dana", "... today. Dana". */
const OWNER_SIGN_OFF = /(^|[\n.!?]\s*|\s[-–—]\s*)(?:[A-Z][a-z]+,\s+)?Dana(?:\s+W\.|\s+Whitfield)?(?:,[^\n]*)?\s*$/u;

/** The reply without the owner's sign-off, the only place a reply may name someone not on the job. */
export function withoutOwnerSignOff(reply: string): string {
  return reply.replace(OWNER_SIGN_OFF, "$1");
}

/**
 * Technicians named in the title, text or owner reply (minus the owner's sign-off) whom the
 * `technicians` field does not list; one line per problem, naming the review id.
 */
export function unlistedTechnicians(review: Review, byFirstName: ReadonlyMap<string, readonly string[]>): string[] {
  const places: [string, string][] = customerTexts(review).map((text) => ["text", text]);
  if (review.response) places.push(["owner reply", withoutOwnerSignOff(review.response.text)]);
  const problems: string[] = [];
  for (const [place, text] of places) {
    for (const first of namedFirstNames(text, byFirstName.keys())) {
      const candidates = byFirstName.get(first) ?? [];
      if (!candidates.some((name) => review.technicians.includes(name))) {
        problems.push(
          `${review.id}: ${place} names "${first}" but technicians ${JSON.stringify(review.technicians)} lists none of ${candidates.join(" / ")}`,
        );
      }
    }
  }
  return [...new Set(problems)];
}

export interface ServiceCue {
  /** Cue as written in the guide. */
  cue: string;
  pattern: RegExp;
  /** Service ids of which the review must list at least one; empty: the word must not be used at all. */
  accepts: readonly string[];
}

/** The cue words of the writing guide. */
export const SERVICE_CUES: readonly ServiceCue[] = [
  { cue: "tankless", pattern: /tankless/iu, accepts: ["tankless-water-heater"] },
  {
    cue: "water heater",
    pattern: /water[\s-]+heater/iu,
    accepts: ["water-heater-repair", "water-heater-installation", "tankless-water-heater"],
  },
  { cue: "disposal", pattern: /disposal/iu, accepts: ["garbage-disposal"] },
  { cue: "sump", pattern: /sump/iu, accepts: ["sump-pump"] },
  { cue: "repip", pattern: /re-?pip/iu, accepts: ["repiping"] },
  { cue: "gas line", pattern: /gas[\s-]+line/iu, accepts: ["gas-line"] },
  { cue: "sewer", pattern: /sewer/iu, accepts: ["sewer-line-repair", "drain-cleaning"] },
  { cue: "toilet", pattern: /toilet/iu, accepts: ["toilet-repair", "drain-cleaning", "emergency-plumbing"] },
  { cue: "faucet", pattern: /faucet/iu, accepts: ["faucet-fixture", "leak-detection"] },
  { cue: "slab leak", pattern: /slab[\s-]+leak/iu, accepts: ["leak-detection"] },
  { cue: "backflow", pattern: /backflow/iu, accepts: [] },
];

/** Cue words in the title or text (not the owner's reply) whose service the `services` field lacks. */
export function missingServices(review: Review, cues: readonly ServiceCue[] = SERVICE_CUES): string[] {
  const text = customerTexts(review).join("\n");
  const problems: string[] = [];
  for (const { cue, pattern, accepts } of cues) {
    if (!pattern.test(text)) continue;
    if (accepts.length === 0) {
      problems.push(`${review.id}: uses "${cue}", a word the catalogue has no service for; reword it`);
    } else if (!accepts.some((id) => review.services.includes(id))) {
      problems.push(
        `${review.id}: text says "${cue}" but services ${JSON.stringify(review.services)} lists none of ${accepts.join(" / ")}`,
      );
    }
  }
  return problems;
}

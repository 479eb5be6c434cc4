import type { Clause } from "./clauses.ts";
import type { Tokens } from "./tokens.ts";

/** Word shapes the quote gates (quote-gates.ts) read in a clause; each list is exact, not a cue lexicon. */

/** Whether the clause holds this sequence of words; "NOT" matches any negator ("not", "n't"). */
export function holds(tokens: Tokens, clause: Clause, words: readonly (readonly string[])[]): boolean {
  for (let i = clause.first; i + words.length <= clause.last; i++) {
    let k = 0;
    while (k < words.length) {
      const want = words[k] as readonly string[];
      const form = want[0] === "NOT" ? (tokens.lemma[i + k] as string) : (tokens.normal[i + k] as string);
      if (!want.includes(want[0] === "NOT" ? (form === "not" ? "NOT" : form) : form)) break;
      k++;
    }
    if (k === words.length) return true;
  }
  return false;
}

export const THIRD = ["them", "him", "her", "they", "their", "his"];
/** The reviewer excuses the business for what they just told ("though that's not on them"). */
export const EXCUSES: readonly (readonly (readonly string[])[])[] = [
  [["NOT"], ["on"], THIRD],
  [["NOT"], ["really", "exactly", "entirely", "totally", "necessarily", "completely"], ["on"], THIRD],
  [["NOT"], THIRD, ["fault"]],
  [["no"], ["fault"], ["of"]],
  [["out", "beyond"], ["of"], THIRD, ["control", "hands"]],
  [["beyond"], THIRD, ["control"]],
  [["NOT"], ["blame"], THIRD],
  [["NOT"], ["hold"], ["it", "that"], ["against"]],
];

/** Charge labels and amounts: "Final invoice: $1,240.", "Came to $450 total." say what was paid, not how it felt. */
const CHARGE_WORDS = new Set([
  ...["final", "total", "invoice", "bill", "charge", "cost", "price", "amount", "grand", "came", "come", "comes"],
  ...["to", "was", "is", "be", "the", "our", "my", "it", "for", "everything", "all", "in", "parts", "labor"],
  ...["and", "plus", "tax", "with", "out", "door", "about", "around", "just", "under", "over", "$", "dollars"],
]);

export function labelAndAmount(tokens: Tokens, clause: Clause): boolean {
  let amount = false;
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.punct[i] === 1) continue;
    const word = tokens.normal[i] as string;
    if (/^[\d.,]+k?$/.test(word)) amount = true;
    else if (!CHARGE_WORDS.has(word) && !CHARGE_WORDS.has(tokens.lemma[i] as string)) return false;
  }
  return amount;
}

/** Nouns of a charge: an evaluative word right before one judges the price ("honest pricing", "fair quote"). */
const PRICE_NOUNS = new Set([
  "price",
  "prices",
  "pricing",
  "quote",
  "quotes",
  "estimate",
  "estimates",
  "rate",
  "rates",
]);

export function modifiesPrice(tokens: Tokens, clause: Clause, cue: string): boolean {
  for (let i = clause.first; i < clause.last - 1; i++) {
    if (tokens.normal[i] === cue && PRICE_NOUNS.has(tokens.normal[i + 1] as string)) return true;
  }
  return false;
}

/** Praise of people with no trait named ("Great guys!", "Such nice people"): no aspect to stand for. */
const BARE_PRAISE = new Set([
  ...["great", "good", "nice", "awesome", "amazing", "wonderful", "fantastic", "super", "excellent", "best"],
  ...["really", "very", "such", "so", "truly", "just", "all", "around", "overall", "what", "a", "the", "these"],
  ...["those", "this", "of", "are", "were", "is", "was", "they", "bunch", "group"],
]);
const PEOPLE = new Set(["guy", "guys", "people", "folks", "team", "crew", "staff", "man", "men", "lady", "dude"]);

export function barePraise(tokens: Tokens, clause: Clause): boolean {
  let person = false;
  for (let i = clause.first; i < clause.last; i++) {
    if (tokens.punct[i] === 1) continue;
    const word = tokens.normal[i] as string;
    if (PEOPLE.has(word) || PEOPLE.has(tokens.lemma[i] as string)) person = true;
    else if (!BARE_PRAISE.has(word)) return false;
  }
  return person;
}

/** Verbs that report what someone said would happen, and the modals of the promised event. */
const REPORTING = new Set(["say", "tell", "promise", "assure", "swear"]);
const PROMISED = new Set(["would", "'d", "will", "'ll", "gonna", "going"]);
const DENIALS = new Set(["not", "no", "never", "nobody", "nothing", "none", "nor"]);

/**
 * A promise told with no outcome ("was told someone would call back within 30 minutes"): what happened
 * is said elsewhere, so the clause alone judges nothing. A denial after the report ("said they'd call and
 * never did") makes it an outcome; one before it is the customer's situation ("with no hot water, was told").
 */
export function promiseOnly(tokens: Tokens, clause: Clause): boolean {
  let reported = false;
  let promised = false;
  for (let i = clause.first; i < clause.last; i++) {
    const lemma = tokens.lemma[i] as string;
    if (reported && (DENIALS.has(lemma) || DENIALS.has(tokens.normal[i] as string))) return false;
    if (REPORTING.has(lemma)) reported = true;
    else if (reported && PROMISED.has(tokens.normal[i] as string)) promised = true;
  }
  return promised;
}

/** Another business named by its place in the story: "the cheapest outfit", "the other bid", "the first company". */
export const RANKED_PARTY: readonly (readonly string[])[] = [
  ["the"],
  ["cheapest", "lowest", "highest", "second", "third", "other", "previous", "first", "last"],
  ["outfit", "outfits", "company", "companies", "plumber", "plumbers", "guy", "guys", "bid", "bids", "quote", "quotes"],
];

/** Nouns that announce a complaint ("my only gripe", "one complaint"); "no complaints" is praise. */
const COMPLAINT_NOUNS = new Set([
  "gripe",
  "gripes",
  "complaint",
  "complaints",
  "downside",
  "knock",
  "beef",
  "criticism",
]);
const NONE_BEFORE = new Set(["no", "zero", "not", "n't", "never", "without", "any", "nothing"]);

export function announcesComplaint(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first; i < clause.last; i++) {
    if (!COMPLAINT_NOUNS.has(tokens.normal[i] as string)) continue;
    let denied = false;
    for (let j = Math.max(clause.first, i - 3); j < i; j++)
      if (NONE_BEFORE.has(tokens.normal[j] as string)) denied = true;
    if (!denied) return true;
  }
  return false;
}

const QUOTE_MARKS = new Set(['"', "'", "“", "”", "‘", "’"]);

/** A single word in quotation marks ("he 'fixed' it", "the "professional""): said with irony, not meant. */
export function scareQuoted(tokens: Tokens, clause: Clause): boolean {
  for (let i = clause.first + 1; i < clause.last - 1; i++) {
    if (tokens.punct[i] === 1) continue;
    const before = tokens.value[i - 1] as string;
    const after = tokens.value[i + 1] as string;
    if (QUOTE_MARKS.has(before) && QUOTE_MARKS.has(after)) return true;
  }
  return false;
}

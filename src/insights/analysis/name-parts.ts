/**
 * Evaluative words that are part of a proper name: a street, a town, a company or a pet ("Fair Oaks
 * Blvd", "Honest Abe's Plumbing", "Good Samaritan Plumbing", "a dog named Lucky") judge nothing.
 *
 * A word is a name part when it is written with a capital inside a sentence (not as its first word, not
 * shouted in capitals) and either follows "named" or "called", or stands in a run of such capitalised
 * words that holds exactly one evaluative word, not as its last word, and at least one word that carries no
 * judgement.
 * "Super Fast Service" (two evaluative words) and "Very Professional" (an intensifier) stay judgements.
 */
const NAMING = new Set(["named", "called"]);
/** Joins the parts of a name without being one: "Abe's", "Smith & Sons". */
const JOINERS = new Set(["'s", "’s", "&"]);

export interface NameWords {
  /** Single words the lexicon reads as judgements ("fair", "honest", "good"). */
  evaluative: ReadonlySet<string>;
  /** Single words that modify a judgement ("very", "not"): never the plain part of a name. */
  modifiers: ReadonlySet<string>;
}

/** Written with a capital and not shouted in capitals ("Fair", not "FAIR" or "I"). */
export function capitalised(value: string): boolean {
  const first = value.charCodeAt(0);
  return first >= 65 && first <= 90 && value.length >= 2 && value !== value.toUpperCase();
}

/** Indexes of the evaluative words of `value` that are part of a name. */
export function evaluativeNameParts(
  value: readonly string[],
  normal: readonly string[],
  sentences: readonly number[][],
  words: NameWords,
): number[] {
  const sentenceFirst = new Set(sentences.map((s) => s[0] as number));
  const inName = (i: number) => capitalised(value[i] as string) && !sentenceFirst.has(i);
  const found: number[] = [];
  let i = 0;
  while (i < value.length) {
    if (!inName(i)) {
      i++;
      continue;
    }
    const run: number[] = [];
    let j = i;
    while (j < value.length && (inName(j) || (run.length > 0 && JOINERS.has(normal[j] as string) && inName(j + 1)))) {
      if (inName(j)) run.push(j);
      j++;
    }
    const evaluative = run.filter((k) => words.evaluative.has(normal[k] as string));
    const plain = run.filter(
      (k) => !words.evaluative.has(normal[k] as string) && !words.modifiers.has(normal[k] as string),
    );
    const named = i > 0 && NAMING.has(normal[i - 1] as string);
    const word = evaluative[0];
    // The word ends the run only after "named": "Kevin Awesome work" is a missing full stop, not a name.
    if (word !== undefined && evaluative.length === 1 && (named || (plain.length > 0 && word !== run.at(-1)))) {
      found.push(word);
    }
    i = j;
  }
  return found;
}

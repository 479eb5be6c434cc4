import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";
import type { Lexicon, ScorerSettings } from "@riverbend/shared/schemas/lexicon.ts";
import { compileScanner, type KeywordScanner } from "./keyword-scanner.ts";
import { compilePatterns, type PatternIndex } from "./matcher.ts";
import type { NameWords } from "./name-parts.ts";
import { requiredKeywords } from "./prefilter.ts";

/** What a lexicon pattern means; one pattern may be a cue, an opinion word, or aspect-conditioned. */
export interface Term {
  cue: { aspect: AspectId; valence: number } | null;
  word: number | null;
  /** Valence per aspect, used when the clause names that aspect through another cue. */
  conditioned: [AspectId, number][] | null;
  /**
   * "other": names another business, so the rest of its segment is not about this one; "hedge": what
   * follows in its segment is an expectation or a purpose, not a judgement.
   */
  scope: "other" | "hedge" | null;
}

export interface IdiomRegex {
  id: string;
  aspect: AspectId;
  valence: number;
  regex: RegExp;
  /**
   * Clauses of indexes into `CompiledLexicon.keywords`: the rule can match only where each clause has a
   * keyword in the review; null: always run.
   */
  keywords: number[][] | null;
}

/** The lexicon turned into lookup structures once, so analysing a review allocates little. */
export interface CompiledLexicon {
  terms: PatternIndex<Term>;
  sarcasm: PatternIndex<true>;
  idioms: IdiomRegex[];
  /** The distinct keywords of all idiom rules, each searched for at most once per review. */
  keywords: string[];
  /** Finds which of `keywords` occur in a lower-cased review, in one pass. */
  scanner: KeywordScanner;
  negators: ReadonlySet<string>;
  scopeBreakers: ReadonlySet<string>;
  contrast: ReadonlySet<string>;
  problemNouns: ReadonlySet<string>;
  personNames: ReadonlySet<string>;
  /** The one-word judgements and modifiers, to tell an evaluative word inside a name ("Fair Oaks"). */
  nameWords: NameWords;
  intensifiers: ReadonlyMap<string, number>;
  settings: ScorerSettings;
}

export function compileLexicon(lexicon: Lexicon): CompiledLexicon {
  const terms = new Map<string, Term>();
  const term = (pattern: string): Term => {
    let t = terms.get(pattern);
    if (!t) {
      t = { cue: null, word: null, conditioned: null, scope: null };
      terms.set(pattern, t);
    }
    return t;
  };
  for (const [aspect, cues] of Object.entries(lexicon.aspects.aspects) as [AspectId, Record<string, number>][]) {
    for (const [pattern, valence] of Object.entries(cues)) term(pattern).cue = { aspect, valence };
  }
  for (const [pattern, valence] of Object.entries(lexicon.valence.words)) term(pattern).word = valence;
  for (const [pattern, byAspect] of Object.entries(lexicon.valence.conditioned)) {
    term(pattern).conditioned = Object.entries(byAspect) as [AspectId, number][];
  }
  const v = lexicon.valence;
  for (const pattern of v.other_parties) term(pattern).scope = "other";
  for (const pattern of v.hedges) term(pattern).scope = "hedge";
  const evaluative = new Set<string>();
  for (const [pattern, t] of terms) {
    const judges = (t.cue && t.cue.valence !== 0) || (t.word !== null && t.word !== 0) || t.conditioned;
    if (judges && !pattern.includes(" ")) for (const word of pattern.split("|")) evaluative.add(word);
  }
  const modifiers = new Set([...Object.keys(v.intensifiers), ...v.negators]);
  const keywords: string[] = [];
  const keywordIndex = new Map<string, number>();
  const indexOf = (keyword: string): number => {
    let at = keywordIndex.get(keyword);
    if (at === undefined) {
      at = keywords.push(keyword) - 1;
      keywordIndex.set(keyword, at);
    }
    return at;
  };
  const idioms = lexicon.idioms.rules.map((r) => ({
    id: r.id,
    aspect: r.aspect,
    valence: r.valence,
    regex: new RegExp(r.regex, "gu"),
    keywords: requiredKeywords(r.regex)?.map((clause) => clause.map(indexOf)) ?? null,
  }));
  return {
    terms: compilePatterns(terms.entries()),
    sarcasm: compilePatterns(lexicon.idioms.sarcasm_markers.map((p): [string, true] => [p, true])),
    idioms,
    keywords,
    scanner: compileScanner(keywords),
    negators: new Set(v.negators),
    scopeBreakers: new Set(v.scope_breakers),
    contrast: new Set(v.contrast_markers),
    problemNouns: new Set(v.problem_nouns),
    personNames: new Set(v.person_names),
    nameWords: { evaluative, modifiers },
    intensifiers: new Map(Object.entries(v.intensifiers)),
    settings: lexicon.settings,
  };
}

import model from "wink-eng-lite-web-model";
import winkNLP from "wink-nlp";
import { capitalised, evaluativeNameParts, type NameWords } from "./name-parts.ts";

/**
 * The tokens of one review as parallel arrays (one allocation per field, not per token), with
 * character offsets into the original text so every quote is an exact substring.
 */
export interface Tokens {
  /** The token text as written (wink keeps it), i.e. `text.slice(start, end)` when found. */
  value: string[];
  /** Normal form and lemma as the analyser reads them: a capitalised first name is "<name>". */
  normal: string[];
  lemma: string[];
  /**
   * wink's own normal forms and lemmas, names left as they are: what topic phrases are made of. The same
   * arrays as `normal` and `lemma` unless a name was replaced.
   */
  wordNormal: string[];
  wordLemma: string[];
  /** wink's part-of-speech tags (Universal POS: "NOUN", "ADJ", ...). */
  pos: string[];
  /** wink's stop-word flags (of the normal form). */
  stop: boolean[];
  /** 1 for punctuation and symbols other than `$`, which patterns may use; 2 for a hyphen inside a word. */
  punct: Uint8Array;
  /** 1 for nouns, adjectives and numbers: the words a noun phrase is made of. */
  nominal: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  /** Token ranges [first, last] of the sentences. */
  sentences: number[][];
}

// Negation and NER are left out of the pipe: the scorer keeps its own short negation scope (wink's runs to
// the next punctuation mark, which swallows "wasn't late and there were no hidden fees"), and the pipe's
// cost is most of the analysis time.
const PIPE = ["sbd", "pos"];

/** The part of wink's core model that its cache grows: the lexemes, by text and by index. */
interface Lexemes {
  hash: Record<string, number>;
  list: string[];
}

/**
 * wink caches every word it reads that its model lacks, and a cached word is tokenised differently
 * afterwards ("year's" is one token once some text has cached it, two before), so a result would
 * depend on the texts read before it: a warm incremental build could differ from a cold one, and a
 * worker thread from the main thread. After each text the engine forgets the words that text added
 * (their hash entries; the lists stay, because wink's feature rows for them are indexed alongside and
 * private), so every text is read as by a fresh wink. The core model is wink's own object, reached
 * through the model's public `core()` loader; tests/insights-tokens.test.ts fails if that changes.
 * The lists still grow with every unknown word read, so the engine is rebuilt (about 70 ms) past
 * REBUILD_AFTER of them, which history independence makes invisible.
 */
const REBUILD_AFTER = 500_000;

interface Engine {
  nlp: ReturnType<typeof winkNLP>;
  lexemes: Lexemes;
  /** Lexemes before the first text: the model's own and any wink adds when it starts. */
  base: number;
  /** Lexemes whose hash entries are already forgotten (or the model's own). */
  forgotten: number;
}

function createEngine(): Engine {
  let core: { features: { lexeme: Lexemes } } | undefined;
  const loader = {
    ...model,
    core: () => {
      core = (model.core as () => typeof core)();
      return core;
    },
  } as typeof model;
  const nlp = winkNLP(loader, PIPE as Parameters<typeof winkNLP>[1]);
  const lexemes = core?.features.lexeme;
  if (!lexemes || !Array.isArray(lexemes.list) || typeof lexemes.hash !== "object") {
    throw new Error("wink-nlp's core model no longer has features.lexeme.{hash,list}: see tokens.ts");
  }
  return { nlp, lexemes, base: lexemes.list.length, forgotten: lexemes.list.length };
}

let engine = createEngine();
// wink's property readers are module-level, the same for every engine.
const its = engine.nlp.its;

const NOMINAL = new Set(["NOUN", "PROPN", "ADJ", "NUM"]);
const DETERMINERS = new Set(["the", "a", "an", "our", "my", "your", "this", "that", "final", "water", "each"]);

/**
 * Words of letters only, or of digits only, are tokenised whole whether wink has cached them or not
 * (every path of its tokeniser adds such a string as one token), so keeping them changes no result
 * and spares reading them again; tests/insights-tokens.test.ts holds that.
 */
const ALWAYS_WHOLE = /^(?:[a-z]+|[0-9]+)$/i;

/**
 * Drops the lexemes the last text added from wink's hash, so the next text reads as the first. The
 * entry is set to undefined rather than deleted: deleting from a dictionary this size leaves holes
 * that V8 rehashes away, which cost a tenth of the analysis time.
 */
function forget(): void {
  const { hash, list } = engine.lexemes;
  for (let i = engine.forgotten; i < list.length; i++) {
    const word = list[i] as string;
    if (hash[word] === i && !ALWAYS_WHOLE.test(word)) (hash as Record<string, number | undefined>)[word] = undefined;
  }
  engine.forgotten = list.length;
  if (list.length - engine.base > REBUILD_AFTER) engine = createEngine();
}

/** How many unknown words the engine has read and forgotten (for tests). */
export function forgottenWords(): number {
  return engine.forgotten - engine.base;
}

const NO_NAME_WORDS: NameWords = { evaluative: new Set(), modifiers: new Set() };

/**
 * `names` are common words that are first names when capitalised ("Bill", "Will"); they become "<name>",
 * as do the evaluative words of `nameWords` written as part of a name ("Fair Oaks", "Honest Abe's").
 */
export function tokenize(
  text: string,
  names: ReadonlySet<string> = new Set(),
  nameWords: NameWords = NO_NAME_WORDS,
): Tokens {
  const doc = engine.nlp.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out(its.value);
  const wordNormal = tokens.out(its.normal);
  // wink's typings give `its.lemma` an extra addons parameter that `out` does not declare.
  const wordLemma = tokens.out(its.lemma as unknown as typeof its.normal);
  const types = tokens.out(its.type);
  const pos = tokens.out(its.pos);
  const stop = tokens.out(its.stopWordFlag) as boolean[];
  // wink gives no lemma for some contractions written without the apostrophe ("couldnt"): the word is its own.
  for (let i = 0; i < wordLemma.length; i++) if (wordLemma[i] === undefined) wordLemma[i] = wordNormal[i] as string;
  let normal = wordNormal;
  let lemma = wordLemma;
  const rename = (i: number) => {
    // Copied on the first name, so wink's own forms stay as they were for the topic phrases.
    if (normal === wordNormal) {
      normal = wordNormal.slice();
      lemma = wordLemma.slice();
    }
    normal[i] = "<name>";
    lemma[i] = "<name>";
  };
  const n = values.length;
  const punct = new Uint8Array(n);
  const nominal = new Uint8Array(n);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  let cursor = 0;
  for (let i = 0; i < n; i++) {
    const value = values[i] as string;
    const type = types[i];
    // Line breaks can come through as tokens of their own; they are no more quotable than punctuation.
    if (((type === "punctuation" || type === "symbol") && value !== "$") || value.trim() === "") punct[i] = 1;
    if (NOMINAL.has(pos[i] as string)) nominal[i] = 1;
    if (names.has(normal[i] as string) && capitalised(value)) {
      if (i === 0 || !DETERMINERS.has(normal[i - 1] as string)) rename(i);
    }
    // wink keeps the original token text, so a forward search from the previous token finds it.
    const at = text.indexOf(value, cursor);
    const s = at < 0 ? cursor : at;
    start[i] = s;
    end[i] = at < 0 ? cursor : s + value.length;
    cursor = end[i] as number;
  }
  for (let i = 1; i < n - 1; i++) {
    if (values[i] === "-" && start[i] === end[i - 1] && end[i] === start[i + 1] && punct[i + 1] === 0) punct[i] = 2;
  }
  const sentences = doc.sentences().out(its.span) as number[][];
  for (const i of evaluativeNameParts(values, normal, sentences, nameWords)) rename(i);
  // Everything is read out of the document: its words may go.
  forget();
  return { value: values, normal, lemma, wordNormal, wordLemma, pos, stop, punct, nominal, start, end, sentences };
}

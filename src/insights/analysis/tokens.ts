import model from "wink-eng-lite-web-model";
import winkNLP from "wink-nlp";

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
const nlp = winkNLP(model, ["sbd", "pos"]);
const its = nlp.its;

const NOMINAL = new Set(["NOUN", "PROPN", "ADJ", "NUM"]);
const DETERMINERS = new Set(["the", "a", "an", "our", "my", "your", "this", "that", "final", "water", "each"]);

/**
 * Every text this thread's wink has read, in order. wink adds each word it has not seen to its cache, and a
 * word once there is tokenised differently afterwards ("year's" is one token after some texts, two before),
 * so a result depends on the texts read before it. A worker thread replays the history to be in the state
 * this thread would be in (src/insights/step/parallel.ts), and texts analysed by a worker on this thread's
 * behalf are replayed here before the next one is read. The entries are the texts themselves (shared).
 */
const history: string[] = [];
let read = 0;

function catchUp(): void {
  while (read < history.length) nlp.readDoc(history[read++] as string);
}

/** The texts read so far (or due to be replayed), in order. */
export function readHistory(): readonly string[] {
  return history;
}

/** Texts read elsewhere, in order after the history: read now (`now`) or before the next text. */
export function replay(texts: readonly string[], now = false): void {
  for (const text of texts) history.push(text);
  if (now) catchUp();
}

/** `names` are common words that are first names when capitalised ("Bill", "Will"); they become "<name>". */
export function tokenize(text: string, names: ReadonlySet<string> = new Set()): Tokens {
  catchUp();
  const doc = nlp.readDoc(text);
  history.push(text);
  read = history.length;
  const tokens = doc.tokens();
  const values = tokens.out(its.value);
  const wordNormal = tokens.out(its.normal);
  // wink's typings give `its.lemma` an extra addons parameter that `out` does not declare.
  const wordLemma = tokens.out(its.lemma as unknown as typeof its.normal);
  const types = tokens.out(its.type);
  const pos = tokens.out(its.pos);
  const stop = tokens.out(its.stopWordFlag) as unknown as boolean[];
  let normal = wordNormal;
  let lemma = wordLemma;
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
    const first = value.charCodeAt(0);
    if (first >= 65 && first <= 90 && names.has(normal[i] as string) && value !== value.toUpperCase()) {
      if (i === 0 || !DETERMINERS.has(normal[i - 1] as string)) {
        // Copied on the first name, so wink's own forms stay as they were for the topic phrases.
        if (normal === wordNormal) {
          normal = wordNormal.slice();
          lemma = wordLemma.slice();
        }
        normal[i] = "<name>";
        lemma[i] = "<name>";
      }
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
  const sentences = doc.sentences().out(its.span) as unknown as number[][];
  return { value: values, normal, lemma, wordNormal, wordLemma, pos, stop, punct, nominal, start, end, sentences };
}

import {
  ASPECT_IDS,
  type AspectId,
  type AspectJudgement,
  type EvidenceSpan,
  type ReviewAnalysis,
} from "@riverbend/shared/schemas/analysis.ts";
import type { Lexicon } from "@riverbend/shared/schemas/lexicon.ts";
import { ClauseClassifier, MODEL_CUE } from "../model/classify.ts";
import type { ClauseModel } from "../model/clause-model.ts";
import { loadModel } from "../model/clause-model.ts";
import { type ClauseFeatures, clauseFeatures, readFeatures } from "../model/features.ts";
import { windowHits } from "./arrival-window.ts";
import { type Clause, splitClauses } from "./clauses.ts";
import { type CompiledLexicon, compileLexicon } from "./compile.ts";
import { isLukewarm, LUKEWARM_CUE } from "./lukewarm.ts";
import { describesOutcome, describesOwnProblem } from "./problem-clause.ts";
import { GATED_CUE_PREFIX, quoteGate, type ReviewContext } from "./quote-gates.ts";
import { quoteHits } from "./quote-vs-bill.ts";
import { type ClauseScore, type IdiomHit, scoreClause } from "./score-clause.ts";
import { type Tokens, tokenize } from "./tokens.ts";

export { lexiconHash, loadLexicon, METHOD_VERSION } from "./lexicon.ts";

/** One review as the analyser reads it. */
export interface ReviewInput {
  text: string;
  rating?: number | undefined;
}

export interface Analyzer {
  analyze(text: string, rating?: number): ReviewAnalysis;
  /**
   * `analyze` of each review, stage by stage over all of them (wink's tokens, then the rule layer, then the
   * learned layer and the gates), so that each stage's tables stay in the processor's cache: the insights
   * step's throughput target. Each result is the one `analyze` gives that review alone.
   */
  analyzeAll(reviews: readonly ReviewInput[]): ReviewAnalysis[];
  /** What the learned layer reads of each clause (for training). */
  features(text: string, rating?: number): ClauseFeatures[];
  /** The review as the quote gates see it: tokens, clauses and the rule layer's score of each. */
  readContext(text: string, rating?: number): ReviewContext;
}

export interface AnalyzerOptions {
  /**
   * Skip an idiom rule when none of its required keywords occurs in the review (default true). The keywords
   * are derived so that skipping never changes a result; turning this off is for tests that check so.
   */
  prefilter?: boolean;
  /** The learned layer; the committed one by default. */
  model?: ClauseModel;
}

/** 1 where a keyword of the lexicon occurs in the review being analysed; reused (analysis is synchronous). */
let present = new Uint8Array(0);

function mayMatch(rule: CompiledLexicon["idioms"][number]): boolean {
  if (rule.keywords === null) return true;
  for (const clause of rule.keywords) if (!clause.some((k) => present[k] === 1)) return false;
  return true;
}

/** Idiom rules run once over the whole review; each match counts for the clause it starts in. */
function idiomHits(text: string, clauses: Clause[], lex: CompiledLexicon, prefilter: boolean): IdiomHit[][] {
  const out: IdiomHit[][] = clauses.map(() => []);
  if (clauses.length === 0) return out;
  let lower = text.toLowerCase();
  // Lower-casing can change the length of some letters; offsets must stay those of the text.
  if (lower.length !== text.length) lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (prefilter) {
    if (present.length < lex.keywords.length) present = new Uint8Array(lex.keywords.length);
    else present.fill(0, 0, lex.keywords.length);
    lex.scanner.scan(lower, present);
  }
  for (const rule of lex.idioms) {
    if (prefilter && !mayMatch(rule)) continue;
    rule.regex.lastIndex = 0;
    let last = -1;
    for (let m = rule.regex.exec(lower); m !== null; m = rule.regex.exec(lower)) {
      const at = clauses.findIndex((c) => m !== null && m.index < c.end);
      if (at >= 0 && at !== last) {
        (out[at] as IdiomHit[]).push({ aspect: rule.aspect, valence: rule.valence, id: rule.id, at: m.index });
        last = at;
      }
      if (m[0].length === 0) rule.regex.lastIndex++;
    }
  }
  return out;
}

/** A judgement-free clause after "but" reads against the clause before it ("great work, except the price"). */
function carryContrast(clauses: Clause[], scores: ClauseScore[], lex: CompiledLexicon) {
  const { threshold, contrast_carry } = lex.settings;
  for (let i = 1; i < clauses.length; i++) {
    const c = clauses[i] as Clause;
    const p = clauses[i - 1] as Clause;
    const s = scores[i] as ClauseScore;
    const ps = scores[i - 1] as ClauseScore;
    if (!c.afterContrast || p.sentence !== c.sentence || s.total !== 0 || Math.abs(ps.total) < threshold) continue;
    for (const a of s.aspects) a.score = contrast_carry * Math.sign(ps.total);
  }
}

function isSarcasm(score: ClauseScore, rating: number | undefined, lex: CompiledLexicon): boolean {
  if (rating === undefined || rating > 2 || score.total <= 0) return false;
  return score.sarcasmMarker || score.total >= lex.settings.sarcasm_score;
}

function ruleAgrees(score: ClauseScore, aspect: AspectId, polarity: string, threshold: number): boolean {
  const s = score.aspects.find((a) => a.aspect === aspect)?.score ?? 0;
  return polarity === "positive" ? s >= threshold : polarity === "negative" ? s <= -threshold : false;
}

/** The rule layer's reading of a review: clauses and, per clause, the aspects its cues and exact rules score. */
export interface RuleReading {
  clauses: Clause[];
  scores: ClauseScore[];
}

export function createAnalyzer(lexicon: Lexicon, options: AnalyzerOptions = {}): Analyzer {
  const prefilter = options.prefilter ?? true;
  const lex = compileLexicon(lexicon);
  const model = options.model ?? loadModel();
  const classifier = new ClauseClassifier(model);
  const read = (text: string) => tokenize(text, lex.personNames, lex.nameWords);
  const analyzeAll = (reviews: readonly ReviewInput[]) => {
    const tokens = reviews.map((r) => read(r.text));
    const contexts = reviews.map((r, i) => contextOf(r.text, tokens[i] as Tokens, r.rating));
    return reviews.map((r, i) => judge(r.text, contexts[i] as ReviewContext));
  };
  const analyze = (text: string, rating?: number) => analyzeAll([{ text, rating }])[0] as ReviewAnalysis;
  const readContext = (text: string, rating?: number) => contextOf(text, read(text), rating);
  const features = (text: string, rating?: number) => {
    const { tokens, clauses, scores } = readContext(text, rating);
    return clauses.map((c, i) => clauseFeatures(tokens, c, scores[i] as ClauseScore, rating, lex, model.vectors));
  };
  return { analyze, analyzeAll, features, readContext };

  function contextOf(text: string, tokens: Tokens, rating?: number): ReviewContext {
    return { tokens, ...readRules(text, tokens, rating), rating };
  }

  function readRules(text: string, tokens: Tokens, rating?: number): RuleReading {
    const clauses = splitClauses(tokens, lex.contrast);
    const idioms = idiomHits(text, clauses, lex, prefilter);
    windowHits(tokens, clauses, idioms);
    quoteHits(tokens, clauses, idioms);
    const lowRating = rating !== undefined && rating <= 2;
    const scores = clauses.map((c, i) => scoreClause(tokens, c, lex, idioms[i] as IdiomHit[], lowRating));
    carryContrast(clauses, scores, lex);
    return { clauses, scores };
  }

  /** The published judgements of a review the rule layer has read. */
  function judge(text: string, review: ReviewContext): ReviewAnalysis {
    const { tokens, clauses, scores, rating } = review;
    const evidence = new Map<AspectId, EvidenceSpan[]>();
    const suspected: ReviewAnalysis["suspected_sarcasm"] = [];
    clauses.forEach((clause, i) => {
      const score = scores[i] as ClauseScore;
      const sarcastic = isSarcasm(score, rating, lex);
      if (sarcastic) suspected.push({ start: clause.start, end: clause.end });
      if (describesOwnProblem(tokens, clause, score)) return;
      classifier.reset();
      readFeatures(tokens, clause, score, rating, lex, model.vectors, classifier);
      const read = classifier.read();
      const lukewarm = isLukewarm(text, tokens, clause);
      for (const reading of read) {
        const { aspect, margin } = reading;
        let { polarity } = reading;
        const ruleCue = score.aspects.find((a) => a.aspect === aspect)?.cue;
        let cue = ruleCue || MODEL_CUE;
        // Lukewarm is neutral; sarcasm in a low-rated review with a problem in it is the problem.
        if (lukewarm && polarity === "positive") {
          polarity = "neutral";
          cue = LUKEWARM_CUE;
        }
        if (sarcastic && polarity === "positive" && describesOutcome(tokens, clause)) polarity = "negative";
        // The star-rating guard: a strongly positive clause in a 1- or 2-star review is not counted.
        if (sarcastic && polarity === "positive") continue;
        // Another business, an earlier repair by others, a hypothetical or a worry is never evidence: in a
        // clause that names one, only what the rule layer reads before it counts.
        if (score.scoped && !ruleAgrees(score, aspect, polarity, lex.settings.threshold)) continue;
        const gate = quoteGate(review, i, aspect, polarity, Boolean(ruleCue));
        if (gate) cue = GATED_CUE_PREFIX + gate;
        const span: EvidenceSpan = {
          start: clause.start,
          end: clause.end,
          polarity,
          cue,
          score: Math.round(margin * 1000) / 1000,
        };
        const list = evidence.get(aspect);
        if (list) list.push(span);
        else evidence.set(aspect, [span]);
      }
    });
    const aspects: AspectJudgement[] = [];
    for (const aspect of ASPECT_IDS) {
      const spans = evidence.get(aspect);
      if (!spans) continue;
      const pos = spans.some((s) => s.polarity === "positive");
      const neg = spans.some((s) => s.polarity === "negative");
      const polarity = pos && neg ? "mixed" : pos ? "positive" : neg ? "negative" : "neutral";
      aspects.push({ aspect, polarity, evidence: spans });
    }
    return { aspects, suspected_sarcasm: suspected };
  }
}

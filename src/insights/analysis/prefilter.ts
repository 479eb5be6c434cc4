/**
 * Required keywords of a regular expression: sets of literal strings such that every text the expression
 * matches somewhere in contains at least one string of each set. The analyser skips an idiom rule when some
 * set has no string in the review, which is most rules for most reviews, so the costly regexes run only
 * where they can match.
 *
 * Derived from the expression itself rather than listed by hand, so the filter cannot drift from the rules.
 * Only the subset of syntax the lexicon uses is understood; anything else makes the rule unfiltered (it
 * always runs), which costs time but never changes a result.
 */

/**
 * What a node of the expression needs: the finite set of strings it matches exactly (null: unknown or too
 * many), and clauses, each a set of strings one of which every match of the node contains.
 */
interface Info {
  exact: string[] | null;
  clauses: string[][];
}

const MAX_STRINGS = 64;
/** A clause with a one-letter keyword filters nothing; a two-letter one ("hr") can still filter. */
const MIN_KEYWORD = 2;
/** Keywords are cut to this length. */
const MAX_KEYWORD = 10;
const EMPTY: Info = { exact: [""], clauses: [] };
const OPAQUE: Info = { exact: null, clauses: [] };

class Unsupported extends Error {}

const CLASS_ESCAPES = new Set(["d", "D", "w", "W", "s", "S"]);
const CONTROL_ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

/** Drops strings that contain another string of the set: wherever they occur, so does the shorter one. */
function minimal(set: string[]): string[] {
  return set.filter((s, i) => !set.some((t, j) => j !== i && s.includes(t) && (s !== t || j < i)));
}

function shortest(set: string[]): number {
  return Math.min(...set.map((s) => s.length));
}

/** A clause filters when none of its strings is empty or too common to tell reviews apart. */
function filters(set: string[] | null): set is string[] {
  return set !== null && set.length > 0 && shortest(set) >= MIN_KEYWORD;
}

/** The more selective of two clauses: the longer shortest string, then fewer strings. */
function better(a: string[] | null, b: string[] | null): string[] | null {
  if (!filters(a)) return filters(b) ? b : null;
  if (!filters(b)) return a;
  const la = shortest(a);
  const lb = shortest(b);
  if (la !== lb) return la > lb ? a : b;
  return a.length <= b.length ? a : b;
}

/** The single most selective clause of a node, for use inside an alternation. */
function bestClause(info: Info): string[] | null {
  let best: string[] | null = filters(info.exact) ? minimal(info.exact) : null;
  for (const c of info.clauses) best = better(best, c);
  return best;
}

function allClauses(info: Info): string[][] {
  return filters(info.exact) ? [...info.clauses, minimal(info.exact)] : info.clauses;
}

function product(left: string[], right: string[]): string[] | null {
  if (left.length * right.length > MAX_STRINGS) return null;
  const out: string[] = [];
  for (const l of left) for (const r of right) out.push(l + r);
  return unique(out);
}

class Parser {
  private i = 0;
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  parse(): Info {
    const info = this.alternation();
    if (this.i !== this.src.length) throw new Unsupported(`unexpected ${this.src[this.i]}`);
    return info;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alternation(): Info {
    const branches = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    if (branches.length === 1) return branches[0] as Info;
    const exacts = branches.map((b) => b.exact);
    const exact = exacts.every((e) => e !== null) ? unique((exacts as string[][]).flat()) : null;
    // One clause per branch, joined: whichever branch matched, its clause is met.
    const best = branches.map(bestClause);
    const joined = best.every((c) => c !== null) ? minimal(unique((best as string[][]).flat())) : null;
    return { exact: exact && exact.length <= MAX_STRINGS ? exact : null, clauses: joined ? [joined] : [] };
  }

  private sequence(): Info {
    const nodes: Info[] = [];
    while (this.i < this.src.length && this.peek() !== "|" && this.peek() !== ")") nodes.push(this.quantified());
    // Every node of a sequence must match, so all their clauses hold.
    const clauses = nodes.flatMap((n) => n.clauses);
    // A run of consecutive exact nodes matches one string of the product of their sets: longest runs, and
    // the most selective window.
    let run: string[] = [""];
    let window: string[] | null = null;
    for (const node of nodes) {
      const joined = node.exact ? product(run, node.exact) : null;
      if (joined) run = joined;
      else {
        if (filters(run)) clauses.push(minimal(run));
        run = node.exact ?? [""];
      }
    }
    if (filters(run)) clauses.push(minimal(run));
    for (let a = 0; a < nodes.length; a++) {
      let w: string[] | null = [""];
      for (let b = a; b < nodes.length && w; b++) {
        const exact = (nodes[b] as Info).exact;
        w = exact ? product(w, exact) : null;
        window = better(window, w ? minimal(w) : null);
      }
    }
    if (window) clauses.push(window);
    let all: string[] | null = [""];
    for (const node of nodes) all = all && node.exact ? product(all, node.exact) : null;
    return { exact: all, clauses };
  }

  private quantified(): Info {
    const atom = this.atom();
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === "?") [min, max] = [0, 1];
    else if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) throw new Unsupported("bad quantifier");
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.peek() === "?") this.i++;
    if (min === 0 && max === 1) {
      return { exact: atom.exact ? unique(["", ...atom.exact]) : null, clauses: [] };
    }
    if (min === 0) return OPAQUE;
    if (min === 1 && max === 1) return atom;
    return { exact: null, clauses: allClauses(atom) };
  }

  private atom(): Info {
    const c = this.src[this.i++];
    switch (c) {
      case "(":
        return this.group();
      case "[":
        return this.charClass();
      case "\\":
        return this.escape();
      case ".":
        return OPAQUE;
      case "^":
      case "$":
        return EMPTY;
      case undefined:
      case "*":
      case "+":
      case "?":
      case "{":
      case ")":
      case "|":
        throw new Unsupported(`unexpected ${c}`);
      default:
        return { exact: [c], clauses: [] };
    }
  }

  private group(): Info {
    let lookaround = false;
    if (this.src.startsWith("?:", this.i)) this.i += 2;
    else if (/^\?<?[=!]/.test(this.src.slice(this.i, this.i + 3))) {
      lookaround = true;
      this.i += this.src[this.i + 1] === "<" ? 3 : 2;
    } else if (this.peek() === "?") throw new Unsupported("group kind");
    const inner = this.alternation();
    if (this.src[this.i++] !== ")") throw new Unsupported("unclosed group");
    // A lookaround consumes nothing; what it requires is not counted, which is always safe.
    return lookaround ? EMPTY : inner;
  }

  private charClass(): Info {
    const chars: string[] = [];
    let opaque = false;
    if (this.peek() === "^") {
      opaque = true;
      this.i++;
    }
    while (this.i < this.src.length && this.peek() !== "]") {
      const c = this.src[this.i++] as string;
      if (c === "\\") {
        const e = this.src[this.i++] as string;
        if (CLASS_ESCAPES.has(e) || e === "u" || e === "x" || e === "p" || e === "P") {
          opaque = true;
          // Skip \u{…}, \uXXXX, \xXX and \p{…} bodies.
          if (this.peek() === "{") this.i = this.src.indexOf("}", this.i) + 1;
          else if (e === "u") this.i += 4;
          else if (e === "x") this.i += 2;
        } else chars.push(CONTROL_ESCAPES[e] ?? e);
      } else if (c === "-" && chars.length > 0 && this.peek() !== "]") opaque = true;
      else chars.push(c);
    }
    if (this.src[this.i++] !== "]") throw new Unsupported("unclosed class");
    return opaque || chars.length === 0 ? OPAQUE : { exact: unique(chars), clauses: [] };
  }

  private escape(): Info {
    const e = this.src[this.i++];
    if (e === undefined) throw new Unsupported("trailing backslash");
    if (e === "b" || e === "B") return EMPTY;
    if (CLASS_ESCAPES.has(e)) return OPAQUE;
    if (/[1-9k]/.test(e)) throw new Unsupported("backreference");
    if (e === "u" || e === "x" || e === "p" || e === "P" || e === "c") throw new Unsupported("escape");
    return { exact: [CONTROL_ESCAPES[e] ?? e], clauses: [] };
  }
}

/**
 * Keyword clauses for `source` (a `u`-flag regex run on lower-cased text without the `i` flag): every text
 * it matches in contains one string of each clause. Null when the rule must always run: syntax this parser
 * does not know, or no literal that filters.
 */
export function requiredKeywords(source: string): string[][] | null {
  try {
    const seen = new Set<string>();
    const clauses: string[][] = [];
    for (const clause of allClauses(new Parser(source).parse())) {
      // A prefix of a keyword is a keyword too (it occurs wherever the whole does); short ones keep the
      // automaton small enough to stay in cache, which matters more than the few extra regex runs.
      const sorted = minimal(unique(clause.map((k) => k.slice(0, MAX_KEYWORD)))).sort();
      const key = JSON.stringify(sorted);
      if (!filters(sorted) || seen.has(key)) continue;
      seen.add(key);
      clauses.push(sorted);
    }
    return clauses.length > 0 ? clauses : null;
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

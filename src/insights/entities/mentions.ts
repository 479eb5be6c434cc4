import type { AliasRule, EntityCatalogue } from "./catalogue.ts";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** At the start of a sentence, where every word is capitalised and a capital proves nothing. */
export function isSentenceInitial(text: string, index: number): boolean {
  let j = index - 1;
  while (j >= 0 && /[\s"'“‘(]/.test(text[j] ?? "")) {
    if (text[j] === "\n") return true;
    j -= 1;
  }
  return j < 0 || /[.!?:]/.test(text[j] ?? "");
}

/** "Bill" the technician, not the bill: a surname initial, a job word before, or mid-sentence. */
function personContext(text: string, start: number, end: number): boolean {
  if (/^\s[A-Z]\.?(?![\p{L}\p{N}])/u.test(text.slice(end, end + 4))) return true;
  if (/\b(?:tech|technician|plumber|with)\s+$/i.test(text.slice(Math.max(0, start - 16), start))) return true;
  return !isSentenceInitial(text, start);
}

/** "in Davis", "from Davis", "Davis, CA": the town, not Mr Davis. */
function placeContext(text: string, start: number, end: number): boolean {
  if (/^,\s*(?:CA|California)\b/.test(text.slice(end, end + 13))) return true;
  return /\b(?:in|from|near|to|around|outside|of)\s+$/i.test(text.slice(Math.max(0, start - 10), start));
}

export interface Matcher {
  /** Ids named unambiguously in the text, in order of first mention. */
  find(text: string): string[];
}

/**
 * One regular expression per catalogue, longest alias first so "Chris M." wins over "Chris" and
 * "tankless water heater" over "water heater". Ambiguous aliases are matched (so a shorter alias
 * does not match inside them) but attribute nothing.
 */
export function createMatcher(catalogue: EntityCatalogue): Matcher {
  const rules = new Map<string, AliasRule>();
  for (const rule of catalogue.rules) rules.set(catalogue.caseSensitive ? rule.text : rule.text.toLowerCase(), rule);
  const alternatives = [...rules.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).map(escapeRegExp);
  if (alternatives.length === 0) return { find: () => [] };
  const flags = catalogue.caseSensitive ? "gu" : "giu";
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}])`, flags);
  const context = catalogue.kind === "technicians" ? personContext : placeContext;
  return {
    find(text) {
      const found: string[] = [];
      // exec with lastIndex, not matchAll: matchAll clones the (large) expression on every call.
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
        const rule = rules.get(catalogue.caseSensitive ? match[0] : match[0].toLowerCase());
        if (rule?.ids.length !== 1) continue;
        const start = match.index;
        if (rule.needsContext && !context(text, start, start + match[0].length)) continue;
        const id = rule.ids[0] as string;
        if (!found.includes(id)) found.push(id);
      }
      return found;
    },
  };
}

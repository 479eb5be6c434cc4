import type { SearchFacets } from "../schemas/search.ts";
import { popcount } from "./bitset.ts";
import { type Filters, type Matches, matchFilters, wordReader } from "./match.ts";
import { memberTest, type Posting } from "./postings.ts";
import type { FacetName, SearchIndex } from "./search-index.ts";

type FacetKind = keyof SearchFacets;

/** The filters that belong to each facet: a facet's counts are taken without them. */
const OWN: Record<FacetKind, readonly (keyof Filters)[]> = {
  rating: ["rating", "min_rating"],
  technician: ["technicians"],
  service: ["service"],
  area: ["area"],
  topic: ["topic"],
};
const KINDS = Object.keys(OWN) as FacetKind[];

/** How many of `matches` a posting holds: word by word over a bitmap, one pass over a list. */
export function countIn(matches: Matches, posting: Posting): number {
  let total = 0;
  if (matches.kind === "list") {
    const has = memberTest(posting);
    for (const p of matches.positions) if (has(p)) total++;
    return total;
  }
  const read = wordReader(posting);
  for (let w = matches.fromWord; w < matches.toWord; w++) {
    const word = matches.words[w] as number;
    if (word !== 0) total += popcount(word & read(w));
  }
  return total;
}

/** Each facet's values as the parameters accept them, with the index key that holds their reviews. */
function values(index: SearchIndex, kind: FacetKind): [value: string, key: string][] {
  const { business } = index;
  switch (kind) {
    case "rating":
      return ["1", "2", "3", "4", "5"].map((r) => [r, r]);
    case "technician":
      return business.technicians.map((t) => [t.id, t.name]);
    case "service":
      return business.services.map((s) => [s.id, s.id.toLowerCase()]);
    case "area":
      return business.service_areas.map((a) => [a.id, a.id]);
    case "topic":
      return [...index.facets.topic.keys()].map((id) => [id, id]);
  }
}

/**
 * The facet counts of a search (see SearchFacetsSchema). Cheap by design: the selection is
 * evaluated once for the facets without a filter of their own and once more per facet that has one
 * (at most six evaluations, each one search's cost), then each value costs one AND and popcount
 * per 32 matched positions, or one pass over a short list: no review is read.
 */
export function facetCounts(index: SearchIndex, filters: Filters): SearchFacets {
  const facets = { rating: {}, technician: {}, service: {}, area: {}, topic: {} } as SearchFacets;
  const count = (kind: FacetKind, matches: Matches) => {
    const postings = index.facets[kind as FacetName];
    for (const [value, key] of values(index, kind)) {
      const posting = postings.get(key);
      facets[kind][value] = posting ? countIn(matches, posting) : 0;
    }
  };
  const isSet = (kind: FacetKind) => OWN[kind].some((name) => filters[name] !== undefined);
  // Matches live in buffers the next evaluation reuses: each is counted before the next is made.
  const unset = KINDS.filter((kind) => !isSet(kind));
  if (unset.length > 0) {
    const matches = matchFilters(index, filters);
    for (const kind of unset) count(kind, matches);
  }
  for (const kind of KINDS.filter(isSet)) {
    const others: Filters = { ...filters };
    for (const name of OWN[kind]) delete others[name];
    count(kind, matchFilters(index, others));
  }
  return facets;
}

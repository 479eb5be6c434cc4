import type { z } from "zod";
import type { Business } from "../schemas/business.ts";
import type { InsightsDocument } from "../schemas/insights.ts";
import type { AggregateRating } from "../schemas/reviews-document.ts";
import { SearchParamsSchema, SearchResponseSchema } from "../schemas/search.ts";
import {
  BusinessInfoSchema,
  GetReviewArgsSchema,
  InsightsArgsSchema,
  InsightsResultSchema,
  InsightsSectionSchema,
  NoArgumentsSchema,
  ReviewResultSchema,
  SinceArgsSchema,
  SinceResultSchema,
} from "../schemas/tools.ts";
import { InvalidRequestError } from "../search/errors.ts";
import { resolveService, resolveTechnician } from "../search/facet-values.ts";
import { reviewsSince } from "../search/reviews-since.ts";
import type { SearchIndex } from "../search/search-index.ts";
import { parseSearchParams, searchReviews, toIssues } from "../search/search-reviews.ts";

/** What the tools read: one loaded build (the same search index the HTTP read API answers from). */
export interface ToolContext {
  index: SearchIndex;
  business: Business;
  aggregate: AggregateRating;
  insights: InsightsDocument;
}

/** A read-only tool, independent of any MCP library: the server card and the MCP server share it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** The tool's whole argument check, when it is more than `input` (rules across arguments). */
  parse?: (args: unknown) => unknown;
  output: z.ZodType;
  run(context: ToolContext, args: unknown): Record<string, unknown>;
}

/** Validates tool arguments with the tool's schema; problems name the argument. */
function parse<T>(schema: z.ZodType<T>, args: unknown): T {
  const result = schema.safeParse(args ?? {});
  if (!result.success) throw new InvalidRequestError(toIssues(result.error.issues));
  return result.data;
}

type InsightsArgs = z.infer<typeof InsightsArgsSchema>;
type Entities = InsightsDocument["entities"];

/** The technician names and service id the arguments name; unknown ones are refused as in search. */
function entityFilters(args: InsightsArgs, index: SearchIndex) {
  const names = args.technician === undefined ? undefined : resolveTechnician(index, args.technician);
  const service = args.service === undefined ? undefined : resolveService(index, args.service);
  const issues = [names, service].filter((value) => typeof value === "object" && "path" in value);
  if (issues.length > 0) {
    throw new InvalidRequestError(
      issues.map((issue) => {
        const { path, code, message } = issue as { path: string; code: string; message: string };
        return { path: path === "mentions_technician" ? "technician" : "service", code, message };
      }),
    );
  }
  return { names: names as readonly string[] | undefined, service: service as string | undefined };
}

function narrowEntities(
  entities: Entities,
  args: InsightsArgs,
  { names, service }: ReturnType<typeof entityFilters>,
): Entities {
  const aspect = <T extends { aspects: { id: string }[] | null }>(entity: T): T =>
    args.aspect && entity.aspects ? { ...entity, aspects: entity.aspects.filter((a) => a.id === args.aspect) } : entity;
  return {
    technicians: (names ? entities.technicians.filter((t) => names.includes(t.name)) : entities.technicians).map(
      aspect,
    ),
    services: (service ? entities.services.filter((s) => s.id === service) : entities.services).map(aspect),
    service_areas: entities.service_areas.map(aspect),
  };
}

function narrowInsights(insights: InsightsDocument, args: InsightsArgs, index: SearchIndex) {
  const filters = entityFilters(args, index);
  const wanted = args.section ? [args.section] : InsightsSectionSchema.options;
  const sections: Record<string, unknown> = {};
  for (const section of wanted) {
    if (section === "aspects") {
      sections.aspects = args.aspect ? insights.aspects.filter((a) => a.id === args.aspect) : insights.aspects;
    } else if (section === "entities") {
      sections.entities = narrowEntities(insights.entities, args, filters);
    } else {
      sections[section] = insights[section];
    }
  }
  const { as_of, review_count, reviews_with_text, disclosure } = insights;
  return { as_of, review_count, reviews_with_text, disclosure, sections };
}

const UNITS =
  "Dates are YYYY-MM-DD in the business's local time zone; ratings are whole stars from 1 to 5. Cite reviews by their `id`.";

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "get_business",
    title: "Business details",
    description: `The business whose reviews these are: name, contact details, address, opening hours, licence, service areas, services (with ids) and technicians (with display names), plus the aggregate rating with its distribution over 1-5 stars. Call this first to learn valid technician names and service ids. ${UNITS}`,
    input: NoArgumentsSchema,
    output: BusinessInfoSchema,
    run: (context, args) => {
      parse(NoArgumentsSchema, args);
      return { business: context.business, aggregate_rating: context.aggregate };
    },
  },
  {
    name: "search_reviews",
    title: "Search reviews",
    description: `Search the verified reviews. All filters combine with AND: exact rating, minimum rating, date range (since/until, inclusive), a case- and accent-insensitive text query over title and text, a technician (id, display name or first name) and a service id. Results are sorted newest first unless sort says otherwise; page with limit (1-100, default 20) and the returned next_cursor. Returns total matches, the page of full reviews, and next_cursor (null on the last page). Same semantics as GET /api/reviews/search. ${UNITS}`,
    input: SearchParamsSchema,
    parse: parseSearchParams,
    output: SearchResponseSchema,
    run: (context, args) => searchReviews(context.index, args),
  },
  {
    name: "get_review",
    title: "One review by id",
    description: `One review with all its fields (text, rating, author, technicians, services, area, owner response). Use when you already have a review id, e.g. to quote it exactly. ${UNITS}`,
    input: GetReviewArgsSchema,
    output: ReviewResultSchema,
    run: (context, args) => {
      const { id } = parse(GetReviewArgsSchema, args);
      const position = context.index.positionOf(id);
      if (position === undefined) {
        throw new InvalidRequestError([{ path: "id", code: "not_found", message: `no review has the id "${id}"` }]);
      }
      return { review: context.index.review(position) };
    },
  },
  {
    name: "get_reviews_since",
    title: "Reviews since a date",
    description: `Reviews dated on or after a date, newest first, up to limit (default 100): for catching up on what is new. total tells how many there are in all; page with the returned next_cursor (null on the last page). Same semantics as GET /api/reviews/since/{date}. ${UNITS}`,
    input: SinceArgsSchema,
    output: SinceResultSchema,
    run: (context, args) => {
      // The HTTP route's rules (and code) with the tool's default limit.
      const { date, limit, cursor } = parse(SinceArgsSchema, args);
      return reviewsSince(context.index, { date, limit, ...(cursor === undefined ? {} : { cursor }) });
    },
  },
  {
    name: "get_insights",
    title: "Insights derived from the reviews",
    description: `Figures derived from the reviews at build time, as published in /insights.json. Sections: "aspects" (for each of punctuality, responsiveness, price, professionalism, quality, communication, cleanliness: reviews that mention it, positive/negative/neutral/mixed counts, share positive with its Wilson lower bound, a monthly or quarterly trend, and exact quotes with review ids), "entities" (per technician, service and service area: reviews and an aspect breakdown; a technician's counts only from clauses about them, and no star average unless the business opts in), "topics" (what customers weigh, such as the arrival window, quote versus final bill, the emergency line or upselling, with counts, sentiment split, quotes and review ids), "faq" (customer questions answered from the figures or by the editor, with quotes) and "summary". Narrow with section, aspect, technician or service. Counts are reviews, not customers; cite a quote by its review_id. ${UNITS}`,
    input: InsightsArgsSchema,
    output: InsightsResultSchema,
    run: (context, args) => narrowInsights(context.insights, parse(InsightsArgsSchema, args), context.index),
  },
];

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((tool) => tool.name));

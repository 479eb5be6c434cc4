import { z } from "zod";
import { IsoDateSchema } from "../schemas/common.ts";
import { toolSchema } from "./standard-schema.ts";
import { TOOLS } from "./tool-catalog.ts";

/*
 * What the MCP server announces about itself, in one place: the server registers exactly this and
 * the server card (/.well-known/mcp/server-card.json) publishes exactly this, so they cannot drift.
 */

export const SERVER_INFO = { name: "riverbend-reviews", title: "Riverbend Plumbing & Drain reviews", version: "1.0.0" };

export const SERVER_INSTRUCTIONS =
  "Read-only access to the verified customer reviews of one plumbing business. Start with get_business for valid technician names and service ids; cite reviews by id.";

/** Every tool only reads build-time data: the same call always gives the same answer. */
export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  idempotentHint: true,
  openWorldHint: false,
  destructiveHint: false,
} as const;

/** The tools in catalog order with their schemas in the form MCP servers register, built once. */
export const TOOL_REGISTRATIONS = TOOLS.map((tool) => ({
  tool,
  input: toolSchema(tool.input, { parse: tool.parse }),
  output: toolSchema(tool.output, { trusted: true }),
  annotations: { title: tool.title, ...TOOL_ANNOTATIONS },
}));

/** The tools/list entries, in the order tools/list gives them. */
export const TOOL_LIST = TOOL_REGISTRATIONS.map(({ tool, input, output, annotations }) => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  inputSchema: input["~standard"].jsonSchema.input(),
  outputSchema: output["~standard"].jsonSchema.output(),
  annotations,
}));

export interface PromptArgumentInfo {
  name: string;
  description: string;
  required: boolean;
}

/**
 * The prompts, declared once: titles, descriptions and argument schemas. The server registers these
 * schemas (adding completions) and prompts/list and the server card derive their argument lists from
 * them; the prompt texts are built in prompts.ts.
 */
export const PROMPTS = {
  summarize_reviews: {
    title: "Summarize reviews",
    description:
      "Summarize the reviews (optionally of one technician, one service, or since a date), citing review ids.",
    args: {
      technician: z.string().describe("Technician display name, id or first name").optional(),
      service: z.string().describe("Service id").optional(),
      since: IsoDateSchema.optional().describe("Only reviews on or after this date, YYYY-MM-DD"),
    },
  },
  answer_customer_question: {
    title: "Answer a customer's question",
    description:
      "Answer a prospective customer's question from the business facts and the relevant reviews, citing review ids.",
    args: { question: z.string().min(1).max(500).describe("The customer's question") },
  },
} as const;

/** An argument's description, on the schema or on the one an `.optional()` wraps. */
function descriptionOf(schema: z.ZodType): string {
  if (schema.description) return schema.description;
  return schema instanceof z.ZodOptional ? descriptionOf(schema.unwrap() as z.ZodType) : "";
}

/** The prompts/list entries. */
export function promptList() {
  return Object.entries(PROMPTS).map(([name, prompt]) => ({
    name,
    title: prompt.title,
    description: prompt.description,
    arguments: Object.entries(prompt.args).map(
      ([arg, schema]): PromptArgumentInfo => ({
        name: arg,
        description: descriptionOf(schema),
        required: !(schema as z.ZodType).safeParse(undefined).success,
      }),
    ),
  }));
}

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

/** Titles, descriptions and arguments of the prompts (their text is built in prompts.ts). */
export const PROMPTS = {
  summarize_reviews: {
    title: "Summarize reviews",
    description:
      "Summarize the reviews (optionally of one technician, one service, or since a date), citing review ids.",
    arguments: {
      technician: { description: "Technician display name, id or first name", required: false },
      service: { description: "Service id", required: false },
      since: { description: "Only reviews on or after this date, YYYY-MM-DD", required: false },
    },
  },
  answer_customer_question: {
    title: "Answer a customer's question",
    description:
      "Answer a prospective customer's question from the business facts and the relevant reviews, citing review ids.",
    arguments: { question: { description: "The customer's question", required: true } },
  },
} as const;

/** The prompts/list entries. */
export function promptList() {
  return Object.entries(PROMPTS).map(([name, prompt]) => ({
    name,
    title: prompt.title,
    description: prompt.description,
    arguments: Object.entries(prompt.arguments).map(
      ([arg, info]): PromptArgumentInfo => ({ name: arg, description: info.description, required: info.required }),
    ),
  }));
}

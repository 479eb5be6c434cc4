import { z } from "zod";

/** Error answers list at most this many problems and count the rest (an answer stays small whatever is sent). */
export const MAX_LISTED_ISSUES = 10;

export const ValidationIssueSchema = z
  .strictObject({
    path: z.string().meta({ description: "The parameter or field at fault, e.g. limit." }),
    code: z.string().meta({ description: "Machine-readable reason, e.g. too_big, invalid_type, unrecognized." }),
    message: z.string().meta({ description: "What is wrong and what is accepted." }),
  })
  .meta({ id: "ValidationIssue" });
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;

export const ErrorResponseSchema = z
  .strictObject({
    error: z.string().meta({ description: "Error code, e.g. invalid_request, not_found, method_not_allowed." }),
    message: z.string(),
    issues: z
      .array(ValidationIssueSchema)
      .max(MAX_LISTED_ISSUES)
      .optional()
      .meta({ description: `One entry per problem, the first ${MAX_LISTED_ISSUES} (400 only).` }),
    more_issues: z
      .int()
      .min(1)
      .optional()
      .meta({ description: "How many further problems were found but are not listed." }),
  })
  .meta({ id: "ErrorResponse", description: "Every error the service returns has this shape." });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

import { z } from "zod";

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
    issues: z.array(ValidationIssueSchema).optional().meta({ description: "One entry per problem (400 only)." }),
  })
  .meta({ id: "ErrorResponse", description: "Every error the service returns has this shape." });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

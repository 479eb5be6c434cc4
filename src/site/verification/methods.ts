import type { Review } from "@riverbend/shared/schemas/review.ts";

export type VerificationMethod = Review["verification"]["method"];

/** Path of the page that explains the methods; each method has an anchor of its id there. */
export const VERIFIED_PAGE = "/verified/";

/**
 * How each verification method works, in the words shown to customers: `label` completes "Verified:"
 * on every review card and in the feeds, `explanation` is the paragraph of the explanation page.
 */
export const VERIFICATION_METHODS: Record<VerificationMethod, { label: string; title: string; explanation: string }> = {
  job_record: {
    label: "matched to a job record",
    title: "Matched to a job record",
    explanation:
      "The review was matched to a job in the business's scheduling records: the customer's name, address and the date of the visit agree with a job a technician carried out. Reviews that match no job are not published.",
  },
  invoice: {
    label: "matched to an invoice",
    title: "Matched to an invoice",
    explanation:
      "The reviewer gave the number of the invoice they received for the work, and the invoice was found in the business's accounts for that customer and that job.",
  },
  invitation: {
    label: "invited after the job",
    title: "Invited after the job",
    explanation:
      "After a finished job the customer received a one-time review invitation by e-mail or text message; the review was written through that invitation, so it can only come from the customer of that job.",
  },
};

/** Link to the explanation of one method on the verification page. */
export const verificationHref = (method: VerificationMethod) => `${VERIFIED_PAGE}#${method.replace("_", "-")}`;

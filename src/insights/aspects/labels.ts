import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";

/** Display label, the noun used in generated sentences, and what the aspect covers. */
export const ASPECT_TEXT: Record<AspectId, { label: string; noun: string; description: string }> = {
  punctuality: {
    label: "Punctuality",
    noun: "punctuality",
    description: "Arriving within the promised window or time; late, early, no-show, waiting for the technician.",
  },
  responsiveness: {
    label: "Responsiveness",
    noun: "responsiveness",
    description:
      "How fast they responded and got it done: same-day or emergency availability, returning calls, lead time, how long the job took.",
  },
  price: {
    label: "Price",
    noun: "price",
    description: "Cost, value, fairness and transparency of quotes and bills, hidden fees, matching the quote.",
  },
  professionalism: {
    label: "Professionalism",
    noun: "professionalism",
    description:
      "Courtesy, honesty, respect for the home, no upselling or pressure, attitude of technicians and office.",
  },
  quality: {
    label: "Quality of work",
    noun: "quality of work",
    description:
      "The work done right and lasting: fixed first time, workmanship, the problem coming back, thoroughness.",
  },
  communication: {
    label: "Communication",
    noun: "communication",
    description:
      "Explaining the problem and options, keeping the customer informed, arrival texts and calls, follow-up.",
  },
  cleanliness: {
    label: "Cleanliness",
    noun: "cleanliness",
    description: "Cleaning up, shoe covers, drop cloths, mess left behind.",
  },
};

import type { AspectId } from "@riverbend/shared/schemas/analysis.ts";

/** The questions customers ask, each answered from one aspect's figures. */
export const ASPECT_QUESTIONS: readonly { id: string; aspect: AspectId; question: string }[] = [
  { id: "on-time", aspect: "punctuality", question: "Do they show up on time?" },
  { id: "fair-prices", aspect: "price", question: "Are their prices fair?" },
  { id: "fast-response", aspect: "responsiveness", question: "How fast do they respond and get the job done?" },
  { id: "clean-up", aspect: "cleanliness", question: "Do they clean up after the job?" },
  { id: "explain", aspect: "communication", question: "Do they explain the problem and the options?" },
  { id: "lasting-work", aspect: "quality", question: "Is the work done right the first time?" },
  { id: "courtesy", aspect: "professionalism", question: "Are the technicians courteous and honest?" },
];

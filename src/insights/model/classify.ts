import { ASPECT_IDS, type AspectId, type ClausePolarity } from "../../schemas/analysis.ts";
import { CLASSES, type ClauseModel, featureIndexes, logits } from "./clause-model.ts";
import type { ClauseFeatures } from "./features.ts";

export interface ClauseReading {
  aspect: AspectId;
  polarity: ClausePolarity;
  /** Log-odds of "judges the aspect" against "does not", signed by the polarity (0 for neutral). */
  margin: number;
}

const z = new Float64Array(3);

/** The aspects one clause judges and how: each aspect whose likeliest class is not "none". */
export function classifyClause(model: ClauseModel, features: ClauseFeatures): ClauseReading[] {
  const indexes = featureIndexes(model, features);
  const out: ClauseReading[] = [];
  for (const aspect of ASPECT_IDS) {
    logits(model.aspects.get(aspect) as NonNullable<ReturnType<typeof model.aspects.get>>, indexes, features.vector, z);
    let best = 0;
    for (let k = 1; k < 3; k++) if ((z[k] as number) > (z[best] as number)) best = k;
    const top = z[best] as number;
    if (top <= model.threshold) continue;
    const polarity = CLASSES[best] as ClausePolarity;
    const sign = polarity === "positive" ? 1 : polarity === "negative" ? -1 : 0;
    out.push({ aspect, polarity, margin: sign * top });
  }
  return out;
}

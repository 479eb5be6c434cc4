import { existsSync } from "node:fs";
import { deleteReview, loadBusiness, readFolder, reviewFile, writeReviewJson } from "../src/data/editor/data-folder.ts";
import { checkOne } from "../src/data/editor/drafts.ts";
import { todayIn } from "../src/data/load-dataset.ts";
import { formatProblem } from "../src/data/problems.ts";
import { isError, parseCatalogueAnswer, parseMethodAnswer } from "./editor/answers.ts";
import { checkDataFolder, parseCommandLine, runCommand, UsageError } from "./editor/command.ts";

const USAGE = `npm run review:verify -- ID --method job_record|invoice|invitation [--reference NUMBER]

Marks a draft (data/drafts/ID.json) as verified and publishes it (moves it to data/reviews/) once
nothing else is missing. What a draft lacks besides verification can be given at the same time:
  --area AREA  --technicians LIST  --services LIST   (names, ids or close misspellings)
On a published review it records the verification given (e.g. a reference found later).`;

const FLAGS = {
  method: { type: "string" },
  reference: { type: "string" },
  area: { type: "string" },
  technicians: { type: "string" },
  services: { type: "string" },
} as const;

async function main(): Promise<number> {
  const { values, positionals, dataDir } = parseCommandLine(FLAGS, USAGE);
  const [id] = positionals;
  if (!id) throw new UsageError(USAGE);
  const method = parseMethodAnswer(typeof values.method === "string" ? values.method : "");
  if (isError(method)) throw new UsageError(`--method ${values.method}: ${method.error}\n\n${USAGE}`);
  if (method === undefined) {
    throw new UsageError(`--method is required: job_record, invoice or invitation\n\n${USAGE}`);
  }
  const folder = existsSync(reviewFile(dataDir, "drafts", id)) ? "drafts" : "reviews";
  const file = readFolder(dataDir, folder).find((f) => f.stem === id);
  if (!file || typeof file.json !== "object" || file.json === null) {
    throw new UsageError(`No review or draft ${JSON.stringify(id)} in ${dataDir}/drafts or ${dataDir}/reviews`);
  }
  const business = loadBusiness(dataDir);
  const json: Record<string, unknown> = { ...(file.json as Record<string, unknown>) };
  // Giving the same method again (say, to add an area) keeps the reference already recorded.
  const recorded = json.verification as { method?: unknown; reference?: unknown } | undefined;
  const kept = recorded?.method === method && typeof recorded.reference === "string" ? recorded.reference : undefined;
  const reference = typeof values.reference === "string" ? values.reference : kept;
  const fill = (flag: "area" | "technicians" | "services", kind: "service area" | "technician" | "service") => {
    const value = values[flag];
    if (typeof value !== "string") return undefined;
    const entries =
      kind === "technician" ? business.technicians : kind === "service" ? business.services : business.service_areas;
    const parsed = parseCatalogueAnswer(value, kind, entries, kind === "technician" ? "name" : "id");
    if (isError(parsed)) throw new UsageError(`--${flag}: ${parsed.error}`);
    return parsed;
  };
  const area = fill("area", "service area");
  const technicians = fill("technicians", "technician");
  const services = fill("services", "service");
  // Keys are rebuilt in the usual order: verification after the author, catalogue fields after source.
  const { verified: _v, verification: _w, source, source_id, ...rest } = json;
  const { technicians: t, services: s, service_area: a, response, updated, ...head } = rest;
  const result: Record<string, unknown> = {
    ...head,
    verified: true,
    verification: { method, ...(reference ? { reference } : {}) },
    source,
    ...(source_id === undefined ? {} : { source_id }),
    technicians: technicians ?? t ?? [],
    services: services ?? s ?? [],
    ...((area?.[0] ?? a) ? { service_area: area?.[0] ?? a } : {}),
    ...(response === undefined ? {} : { response }),
    ...(updated === undefined ? {} : { updated }),
  };
  const problems = checkOne({ ...file, json: result }, business, todayIn(business.time_zone));
  if (problems.length > 0) {
    writeReviewJson(dataDir, folder, result);
    console.log(`Verified, but still a draft (${file.display}); it lacks:\n${problems.map(formatProblem).join("\n")}`);
    return 1;
  }
  writeReviewJson(dataDir, "reviews", result);
  if (folder === "drafts") deleteReview(dataDir, "drafts", id);
  console.log(
    `Verified by ${method}${reference ? ` ${reference}` : ""}: ${reviewFile(dataDir, "reviews", id)} is published with the next build.`,
  );
  return checkDataFolder(dataDir);
}

await runCommand(main);

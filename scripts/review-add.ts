import type { Business } from "@riverbend/shared/schemas/business.ts";
import { composeReview, type ReviewInput } from "../src/data/editor/compose-review.ts";
import { loadBusiness, takenIds, writeReviewJson } from "../src/data/editor/data-folder.ts";
import { checkOne } from "../src/data/editor/drafts.ts";
import { deriveReviewId } from "../src/data/editor/review-id.ts";
import { todayIn } from "../src/data/load-dataset.ts";
import { formatProblem } from "../src/data/problems.ts";
import {
  choiceList,
  isError,
  type Parsed,
  parseAuthorAnswer,
  parseCatalogueAnswer,
  parseDateAnswer,
  parseMethodAnswer,
  parseRatingAnswer,
  parseSourceAnswer,
} from "./editor/answers.ts";
import { checkDataFolder, parseCommandLine, runCommand, UsageError } from "./editor/command.ts";
import { Prompter } from "./editor/prompter.ts";

const USAGE = `npm run review:add [-- FLAGS]

Asks for each field in a terminal; flags answer questions ahead, and with standard input not a
terminal (a script) nothing is asked: --rating and --author and --area are then required.

  --date YYYY-MM-DD     review date (default: today)       --rating 1-5
  --title TEXT          optional headline                   --text TEXT (none: a rating-only review)
  --author NAME         as shown, e.g. "Maria G."           --locality TOWN
  --technicians LIST    names or ids, comma-separated       --services LIST   names or ids
  --area AREA           service area, name or id            --source SOURCE   (default: direct)
  --method METHOD       job_record, invoice or invitation (none: saved as a draft)
  --reference NUMBER    the job, invoice or invitation number
  --reply TEXT          owner's reply                       --reply-date YYYY-MM-DD (default: --date)
  --interactive         ask even when standard input is not a terminal
  --data DIR            data folder (default: DATA_DIR or data)`;

const FLAGS = {
  date: { type: "string" },
  rating: { type: "string" },
  title: { type: "string" },
  text: { type: "string" },
  author: { type: "string" },
  locality: { type: "string" },
  technicians: { type: "string" },
  services: { type: "string" },
  area: { type: "string" },
  source: { type: "string" },
  method: { type: "string" },
  reference: { type: "string" },
  reply: { type: "string" },
  "reply-date": { type: "string" },
  interactive: { type: "boolean" },
} as const;

type Flags = Partial<Record<keyof typeof FLAGS, string | boolean>>;

/** Answers from flags only: every problem is collected and reported at once. */
function fromFlags(flags: Flags, business: Business, today: string): Omit<ReviewInput, "id"> {
  const errors: string[] = [];
  const take = <T>(name: string, value: Parsed<T>): T | undefined => {
    if (!isError(value)) return value;
    errors.push(`--${name}: ${value.error}`);
    return undefined;
  };
  const text = (name: keyof typeof FLAGS) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
  for (const required of ["rating", "author", "area"] as const) {
    if (text(required) === undefined) errors.push(`--${required} is required when nothing is asked (no terminal)`);
  }
  const tz = business.time_zone;
  const date = take("date", parseDateAnswer(text("date") ?? today, tz)) ?? today;
  const input = {
    date,
    rating: take("rating", parseRatingAnswer(text("rating") ?? "")) ?? 0,
    title: text("title"),
    text: text("text"),
    author: take("author", parseAuthorAnswer(text("author") ?? "")) ?? "",
    locality: text("locality"),
    technicians:
      take(
        "technicians",
        parseCatalogueAnswer(text("technicians") ?? "", "technician", business.technicians, "name"),
      ) ?? [],
    services: take("services", parseCatalogueAnswer(text("services") ?? "", "service", business.services, "id")) ?? [],
    area: take("area", parseCatalogueAnswer(text("area") ?? "", "service area", business.service_areas, "id"))?.[0],
    source: take("source", parseSourceAnswer(text("source") ?? "direct")) ?? "direct",
    method: take("method", parseMethodAnswer(text("method") ?? "")),
    reference: text("reference"),
    response: text("reply")
      ? { date: take("reply-date", parseDateAnswer(text("reply-date") ?? date, tz)) ?? date, text: text("reply") ?? "" }
      : undefined,
  };
  if (errors.length > 0) throw new UsageError(`${errors.join("\n")}\n\nnpm run review:add -- --help lists the flags.`);
  return input;
}

/** Answers from prompts, each asked until valid; a flag given answers its question ahead. */
async function fromPrompts(flags: Flags, business: Business, today: string): Promise<Omit<ReviewInput, "id">> {
  const ask = new Prompter();
  const tz = business.time_zone;
  const given = (name: keyof typeof FLAGS) => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
  const field = async <T>(
    name: keyof typeof FLAGS,
    question: string,
    parse: (a: string) => Parsed<T>,
    fallback?: string,
  ) => {
    const flag = given(name);
    if (flag !== undefined && !isError(parse(flag))) return parse(flag) as T;
    return ask.until(question, parse, fallback);
  };
  try {
    const date = await field("date", "Date of the review", (a) => parseDateAnswer(a, tz), today);
    const rating = await field("rating", "Rating (1-5 stars)", parseRatingAnswer);
    const title = given("title") ?? ((await ask.ask("Title (optional)")) || undefined);
    const text = given("text") ?? ((await ask.askText("Text (leave empty for a rating-only review)")) || undefined);
    const author = await field("author", 'Author as shown, e.g. "Maria G."', parseAuthorAnswer);
    const locality = given("locality") ?? ((await ask.ask("Author's town (optional)")) || undefined);
    console.log(`Technicians:\n${choiceList(business.technicians)}`);
    const technicians = await field(
      "technicians",
      "Technicians (numbers, names or ids; comma-separated; may be empty)",
      (a) => parseCatalogueAnswer(a, "technician", business.technicians, "name"),
    );
    console.log(`Services:\n${choiceList(business.services)}`);
    const services = await field("services", "Services (numbers, names or ids; comma-separated)", (a) =>
      parseCatalogueAnswer(a, "service", business.services, "id"),
    );
    console.log(`Service areas:\n${choiceList(business.service_areas)}`);
    const area = await field("area", "Service area (number, name or id)", (a) => {
      const parsed = parseCatalogueAnswer(a, "service area", business.service_areas, "id");
      return isError(parsed) || parsed.length !== 1 ? { error: "choose exactly one service area" } : parsed[0];
    });
    const method = await field(
      "method",
      "Verified by (job_record, invoice, invitation; empty: save as draft)",
      parseMethodAnswer,
      "",
    );
    const reference = method
      ? (given("reference") ?? ((await ask.ask("Job, invoice or invitation number")) || undefined))
      : undefined;
    const reply = given("reply") ?? ((await ask.askText("Owner's reply (optional)")) || undefined);
    const replyDate = reply
      ? await field("reply-date", "Date of the reply", (a) => parseDateAnswer(a, tz), date)
      : undefined;
    const source = await field("source", "Source", parseSourceAnswer, "direct");
    return {
      date,
      rating,
      title,
      text,
      author,
      locality,
      technicians,
      services,
      area,
      method,
      reference,
      source,
      response: reply && replyDate ? { date: replyDate, text: reply } : undefined,
    };
  } finally {
    ask.done();
  }
}

async function main(): Promise<number> {
  const { values: flags, dataDir } = parseCommandLine(FLAGS, USAGE);
  const business = loadBusiness(dataDir);
  const today = todayIn(business.time_zone);
  const interactive = flags.interactive === true || process.stdin.isTTY === true;
  const answers = interactive ? await fromPrompts(flags, business, today) : fromFlags(flags, business, today);
  const id = deriveReviewId(answers.date, answers.author, takenIds(dataDir));
  const { json, errors } = composeReview({ ...answers, id }, business);
  if (errors.length > 0) throw new UsageError(errors.join("\n"));
  const problems = checkOne({ display: `review ${id}`, stem: id, json }, business, today);
  const unverified = problems.every((p) => p.field === "verified" || p.field.startsWith("verification"));
  if (problems.length > 0 && !unverified) {
    console.error(`Not saved:\n${problems.map(formatProblem).join("\n")}`);
    return 1;
  }
  if (problems.length > 0) {
    const file = writeReviewJson(dataDir, "drafts", json);
    console.log(`Saved as a draft (not published until verified): ${file}`);
    console.log(`Verify it with: npm run review:verify -- ${id} --method invoice --reference NUMBER`);
  } else {
    console.log(`Added ${writeReviewJson(dataDir, "reviews", json)}`);
  }
  return checkDataFolder(dataDir);
}

await runCommand(main);

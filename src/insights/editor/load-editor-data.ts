import { existsSync } from "node:fs";
import path from "node:path";
import type { Business } from "@riverbend/shared/schemas/business.ts";
import {
  type EditorFaqFile,
  EditorFaqFileSchema,
  type EditorSummaryFile,
  EditorSummaryFileSchema,
  type EntityAliasesFile,
  EntityAliasesFileSchema,
  type TopicCatalogue,
  TopicCatalogueSchema,
} from "@riverbend/shared/schemas/insights-data.ts";
import type { DataProblem } from "../../data/problems.ts";
import { unknownPlaceholders } from "./placeholders.ts";
import { displayPath, readOptionalJson } from "./read-json.ts";

export interface EditorData {
  entities: EntityAliasesFile;
  faq: EditorFaqFile | undefined;
  summary: EditorSummaryFile | undefined;
  topics: TopicCatalogue;
  /** Where each file was read from, for messages about its content. */
  files: { faq: string; summary: string };
}

/** Ids in entities.json must exist in business.json: a typo would silently match nothing. */
function checkIds(file: string, aliases: EntityAliasesFile, business: Business, problems: DataProblem[]) {
  const known = {
    technicians: business.technicians.map((t) => t.id),
    services: business.services.map((s) => s.id),
    service_areas: business.service_areas.map((a) => a.id),
  };
  for (const kind of Object.keys(known) as (keyof typeof known)[]) {
    for (const id of Object.keys(aliases[kind])) {
      if (!known[kind].includes(id)) {
        const message = `no entry of business.json ${kind} has the id "${id}"; known ids are ${known[kind].join(", ")}`;
        problems.push({ file: displayPath(file), field: `${kind}.${id}`, message });
      }
    }
  }
}

function checkPlaceholders(file: string, field: string, text: string, problems: DataProblem[]) {
  for (const message of unknownPlaceholders(text)) problems.push({ file: displayPath(file), field, message });
}

/** Each topic's expressions must compile, and ids be unique: a bad one is named with its file and field. */
function checkTopics(file: string, topics: TopicCatalogue | undefined, problems: DataProblem[]): TopicCatalogue {
  if (!topics) return { version: "", topics: [] };
  const ids = new Set<string>();
  topics.topics.forEach((topic, index) => {
    if (ids.has(topic.id)) {
      problems.push({ file: displayPath(file), field: `topics[${index}].id`, message: `"${topic.id}" is used twice` });
    }
    ids.add(topic.id);
    topic.match.forEach((source, m) => {
      try {
        new RegExp(source, "iu");
      } catch (error) {
        problems.push({
          file: displayPath(file),
          field: `topics[${index}].match[${m}]`,
          message: (error as Error).message,
        });
      }
    });
  });
  return topics;
}

function checkFaqIds(file: string, faq: EditorFaqFile, problems: DataProblem[]) {
  const first = new Map<string, number>();
  faq.faq.forEach((entry, index) => {
    checkPlaceholders(file, `faq[${index}].question`, entry.question, problems);
    checkPlaceholders(file, `faq[${index}].answer`, entry.answer, problems);
    const earlier = first.get(entry.id);
    if (earlier === undefined) first.set(entry.id, index);
    else
      problems.push({
        file: displayPath(file),
        field: `faq[${index}].id`,
        message: `"${entry.id}" is already used by faq[${earlier}]`,
      });
  });
}

/**
 * The insights files: editor files from `<dataDir>/insights/` (each optional), the topic catalogue
 * (topics.json) from there or else from `<root>/data/insights/`.
 */
export function loadEditorData(root: string, dataDir: string, business: Business, problems: DataProblem[]): EditorData {
  const own = (name: string) => path.resolve(dataDir, "insights", name);
  const method = (name: string) => (existsSync(own(name)) ? own(name) : path.resolve(root, "data", "insights", name));
  const files = { entities: own("entities.json"), faq: own("faq.json"), summary: own("summary.json") };
  const entities = readOptionalJson(files.entities, EntityAliasesFileSchema, problems);
  if (entities) checkIds(files.entities, entities, business, problems);
  const faq = readOptionalJson(files.faq, EditorFaqFileSchema, problems);
  if (faq) checkFaqIds(files.faq, faq, problems);
  const required = <T>(file: string, schema: Parameters<typeof readOptionalJson<T>>[1]): T | undefined => {
    const value = readOptionalJson(file, schema, problems);
    if (value === undefined && !problems.some((p) => p.file === displayPath(file))) {
      problems.push({ file: displayPath(file), field: "(file)", message: "cannot be read: file not found" });
    }
    return value;
  };
  const summary = readOptionalJson(files.summary, EditorSummaryFileSchema, problems);
  if (summary) checkPlaceholders(files.summary, "text", summary.text, problems);
  return {
    entities: entities ?? { technicians: {}, services: {}, service_areas: {} },
    faq,
    summary,
    topics: checkTopics(method("topics.json"), required(method("topics.json"), TopicCatalogueSchema), problems),
    files: { faq: displayPath(files.faq), summary: displayPath(files.summary) },
  };
}

import type { Business } from "../../schemas/business.ts";
import type { EntityAliasesFile } from "../../schemas/insights-data.ts";

/** Lower-case names of people and places: a topic containing one is about an entity, not a subject. */
export function entityNames(business: Business, aliases: EntityAliasesFile): Set<string> {
  const names = new Set<string>();
  const add = (text: string) => names.add(text.toLowerCase().replace(/\.$/, ""));
  for (const t of business.technicians) {
    for (const part of t.name.split(/\s+/)) if (part.length > 2) add(part);
    for (const alias of aliases.technicians[t.id]?.aliases ?? []) for (const part of alias.split(/\s+/)) add(part);
  }
  for (const a of business.service_areas) {
    add(a.name);
    for (const alias of aliases.service_areas[a.id]?.aliases ?? []) add(alias);
  }
  return names;
}

/** Whether the phrase contains one of the names as whole words. */
export function containsName(phrase: string, names: ReadonlySet<string>): boolean {
  const padded = ` ${phrase} `;
  for (const name of names) if (padded.includes(` ${name} `)) return true;
  return false;
}

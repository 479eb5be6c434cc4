import type { Business } from "@riverbend/shared/schemas/business.ts";
import type { EntityAliasesFile } from "@riverbend/shared/schemas/insights-data.ts";

export type EntityKind = "technicians" | "services" | "service_areas";

/** A name the text matcher looks for, and what it may stand for. */
export interface AliasRule {
  text: string;
  /** Every entity this alias names: more than one makes it ambiguous, and it is never attributed. */
  ids: string[];
  /** Also an ordinary word or surname: matched only with context. */
  needsContext: boolean;
}

export interface EntityEntry {
  id: string;
  name: string;
  /** Aliases that name this entity alone: the ones the matcher attributes, and the ones published. */
  aliases: string[];
}

export interface EntityCatalogue {
  kind: EntityKind;
  entries: EntityEntry[];
  rules: AliasRule[];
  caseSensitive: boolean;
}

function catalogue(
  kind: EntityKind,
  items: readonly { id: string; name: string }[],
  aliasesOf: (item: { id: string; name: string }) => { text: string; needsContext: boolean }[],
  caseSensitive: boolean,
): EntityCatalogue {
  const rules = new Map<string, AliasRule>();
  for (const item of items) {
    for (const alias of aliasesOf(item)) {
      const key = caseSensitive ? alias.text : alias.text.toLowerCase();
      const rule = rules.get(key) ?? { text: alias.text, ids: [], needsContext: false };
      if (!rule.ids.includes(item.id)) rule.ids.push(item.id);
      rule.needsContext ||= alias.needsContext;
      rules.set(key, rule);
    }
  }
  const entries = items.map((item) => ({
    id: item.id,
    name: item.name,
    aliases: [...rules.values()].filter((r) => r.ids.length === 1 && r.ids[0] === item.id).map((r) => r.text),
  }));
  return { kind, entries, rules: [...rules.values()], caseSensitive };
}

/**
 * The three catalogues of business.json with the aliases of entities.json. Without that file a
 * technician is known by display name and first name, a service and an area by their names.
 */
export function entityCatalogues(business: Business, file: EntityAliasesFile): Record<EntityKind, EntityCatalogue> {
  return {
    technicians: catalogue(
      "technicians",
      business.technicians,
      (t) => {
        const extra = file.technicians[t.id];
        const first = t.name.split(/\s+/)[0] ?? t.name;
        const names = [first, ...(extra?.aliases ?? [])];
        return [
          { text: t.name, needsContext: false },
          ...names.map((text) => ({ text, needsContext: extra?.is_word === true && text === first })),
        ];
      },
      true,
    ),
    services: catalogue(
      "services",
      business.services,
      (s) => [s.name, ...(file.services[s.id]?.aliases ?? [])].map((text) => ({ text, needsContext: false })),
      false,
    ),
    service_areas: catalogue(
      "service_areas",
      business.service_areas,
      (a) => {
        const extra = file.service_areas[a.id];
        const names = [a.name, ...(extra?.aliases ?? [])].map((text) => ({
          text,
          needsContext: extra?.needs_context === true,
        }));
        return [...names, ...(extra?.zips ?? []).map((text) => ({ text, needsContext: false }))];
      },
      true,
    ),
  };
}

import { readFileSync } from "node:fs";
import { type Business, BusinessSchema } from "@riverbend/shared/schemas/business.ts";
import { EntityAliasesFileSchema } from "@riverbend/shared/schemas/insights-data.ts";
import { describe, expect, it } from "vitest";
import { entityCatalogues } from "../src/insights/entities/catalogue.ts";
import { createMatcher } from "../src/insights/entities/mentions.ts";

// The real catalogue and alias files: the sample has two technicians called Chris and one called Bill.
const business: Business = BusinessSchema.parse(JSON.parse(readFileSync("data/business.json", "utf8")));
const aliases = EntityAliasesFileSchema.parse(JSON.parse(readFileSync("data/insights/entities.json", "utf8")));
const catalogues = entityCatalogues(business, aliases);
const technicians = createMatcher(catalogues.technicians);
const services = createMatcher(catalogues.services);
const areas = createMatcher(catalogues.service_areas);

describe("technician mentions", () => {
  it("does not attribute a first name two technicians share", () => {
    expect(technicians.find("Chris was great and fixed the drain.")).toEqual([]);
    expect(catalogues.technicians.entries.find((e) => e.id === "chris-moreno")?.aliases).not.toContain("Chris");
  });

  it("attributes a shared first name with its surname initial or full name", () => {
    expect(technicians.find("Chris M. snaked the line, Chris Albright helped.")).toEqual([
      "chris-moreno",
      "chris-albright",
    ]);
  });

  it("does not read the word bill as Bill", () => {
    expect(technicians.find("The bill was higher than the quote.")).toEqual([]);
    expect(technicians.find("Bill me later, they said.")).toEqual([]);
  });

  it("reads Bill with context: mid-sentence, surname initial, or after tech/plumber/with", () => {
    expect(technicians.find("Our plumber Bill replaced the valve.")).toEqual(["bill-hadley"]);
    expect(technicians.find("Bill H. replaced the valve.")).toEqual(["bill-hadley"]);
    expect(technicians.find("We were lucky to get Bill that day.")).toEqual(["bill-hadley"]);
  });

  it("reads ordinary first names anywhere, case-sensitively", () => {
    expect(technicians.find("Luis was on time. Thanks to priya too.")).toEqual(["luis-ortega"]);
  });
});

describe("service and area mentions", () => {
  it("prefers the longest alias and ignores case for services", () => {
    expect(services.find("They swapped our old tank for a Tankless Water Heater.")).toEqual(["tankless-water-heater"]);
    expect(services.find("Fixed the garbage disposal and a running toilet.")).toEqual([
      "garbage-disposal",
      "toilet-repair",
    ]);
  });

  it("needs place context for an area name that is also a surname", () => {
    expect(areas.find("Mr. Davis next door recommended them.")).toEqual([]);
    expect(areas.find("We live in Davis and they came the same day.")).toEqual(["davis"]);
    expect(areas.find("Our house in East Sac, zip 95819.")).toEqual(["sacramento"]);
  });
});

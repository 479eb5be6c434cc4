import { type ParseArgsConfig, parseArgs } from "node:util";
import { ConfigError, parseConfig } from "@riverbend/shared/config/parse-config.ts";
import { loadDataset } from "../../src/data/load-dataset.ts";
import { DataValidationError } from "../../src/data/problems.ts";

/** A command line the command cannot act on; the message says what to write instead. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Parses flags; `--data DIR` (or DATA_DIR) names the data folder, as for data:check. */
export function parseCommandLine<T extends NonNullable<ParseArgsConfig["options"]>>(options: T, usage: string) {
  try {
    const parsed = parseArgs({
      args: process.argv.slice(2),
      options: { ...options, data: { type: "string" }, help: { type: "boolean" } },
      allowPositionals: true,
    });
    const values = parsed.values as Partial<Record<keyof T | "data" | "help", string | boolean>>;
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    const dataDir = typeof values.data === "string" ? values.data : parseConfig().DATA_DIR;
    return { values, positionals: parsed.positionals, dataDir };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}

/** After a change: the same validation as `npm run data:check`, so a problem shows at once. */
export function checkDataFolder(dataDir: string): number {
  try {
    const dataset = loadDataset(dataDir);
    console.log(`data:check: ${dataDir} OK, ${dataset.reviews.length} published reviews.`);
    return 0;
  } catch (error) {
    if (!(error instanceof DataValidationError)) throw error;
    console.error(`data:check: ${error.message}`);
    return 1;
  }
}

/** Runs a command's main, turning the errors an editor can fix into a message and exit code 1. */
export async function runCommand(main: () => number | Promise<number>): Promise<void> {
  try {
    process.exitCode = await main();
  } catch (error) {
    if (error instanceof UsageError || error instanceof DataValidationError || error instanceof ConfigError) {
      console.error(error.message);
      process.exitCode = error instanceof UsageError ? 2 : 1;
      return;
    }
    throw error;
  }
}

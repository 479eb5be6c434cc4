import { type Config, ConfigSchema } from "../schemas/config.ts";

/** A configuration value is wrong; the message names the environment variable to fix. */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.problems = problems;
    this.name = "ConfigError";
  }
}

/** Parses the process configuration from environment variables, once, failing on any bad value. */
export function parseConfig(env: Record<string, string | undefined> = process.env): Config {
  const keys = Object.keys(ConfigSchema.in.shape);
  const relevant: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined && value !== "") relevant[key] = value;
  }
  const result = ConfigSchema.safeParse(relevant);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "configuration");
      const given = name in relevant ? `, got ${JSON.stringify(relevant[name])}` : "";
      return `${name}: ${issue.message}${given}`;
    }),
  );
}

import { spawnSync } from "node:child_process";

// `npm start`: build (validating the data) and then serve everything from one process.
const tsx = ["--import", "tsx"];
const build = spawnSync(process.execPath, [...tsx, "scripts/build.ts"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
await import("@riverbend/server/main.ts");

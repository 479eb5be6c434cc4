// Runs before anything else in `npm start` and `npm run build`. CommonJS and plain ES2015, so any
// Node parses it: it says which Node the project needs instead of a SyntaxError deep in the build.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** The problem with running on `version` when package.json asks for `range` (">=22.13.0"), or "". */
function nodeVersionProblem(version, range) {
  const wanted = /(\d+)\.(\d+)\.(\d+)/.exec(range);
  const have = /(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!wanted || !have) return "";
  for (let i = 1; i <= 3; i++) {
    if (Number(have[i]) > Number(wanted[i])) return "";
    if (Number(have[i]) < Number(wanted[i])) {
      return (
        `This project needs Node.js ${range} (package.json "engines"); this is Node.js ${version}.\n` +
        "Install Node.js 22.13 or newer (https://nodejs.org), or with nvm: nvm install 24 && nvm use 24."
      );
    }
  }
  return "";
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "package.json"), "utf8"));
  const problem = nodeVersionProblem(process.versions.node, pkg.engines.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}

module.exports = { nodeVersionProblem };
if (require.main === module) main();

/** One thing wrong with the input data, located precisely enough for an editor to fix it. */
export interface DataProblem {
  file: string;
  field: string;
  message: string;
}

export function formatProblem(problem: DataProblem): string {
  return `${problem.file}: ${problem.field}: ${problem.message}`;
}

/** Thrown when the data folder does not validate; carries every problem found in one run. */
export class DataValidationError extends Error {
  readonly problems: readonly DataProblem[];

  constructor(problems: readonly DataProblem[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(`The data does not validate (${count}):\n${problems.map(formatProblem).join("\n")}`);
    this.name = "DataValidationError";
    this.problems = problems;
  }
}

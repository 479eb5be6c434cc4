export * from "@riverbend/shared/schemas/dataset.ts";
export { loadDataset, todayIn } from "./load-dataset.ts";
export * from "./problems.ts";

/**
 * What the validator tests (tests/feed-validators-*.test.ts) share: the site their
 * hand-written feeds belong to, and the filter that finds the error a planted
 * defect must produce.
 */

export const SITE = "https://reviews.riverbend-plumbing.example";

export const matching = (errors: string[], pattern: RegExp) => errors.filter((error) => pattern.test(error));

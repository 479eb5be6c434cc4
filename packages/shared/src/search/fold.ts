/**
 * Folds text for case- and accent-insensitive matching: canonical decomposition, combining marks
 * removed, lower case. "Café" and "CAFE" both fold to "cafe".
 */
export function foldText(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

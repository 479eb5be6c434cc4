import { existsSync } from "node:fs";
import { Resvg } from "@resvg/resvg-js";

/** Debian's fonts-liberation (installed by .ci/run and the Dockerfile): the cards' only font. */
const FONT_DIR = process.env.OG_FONT_DIR ?? "/usr/share/fonts/truetype/liberation";
export const FONTS = ["LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"].map((f) => `${FONT_DIR}/${f}`);

/**
 * An SVG card as PNG bytes. Deterministic: resvg draws with the given font files only (never the
 * system's font list, which differs between machines) and its PNG encoder writes no time or
 * metadata, so the same data, resvg version and font files give the same bytes.
 */
export function renderPng(svg: string): Buffer {
  const missing = FONTS.find((file) => !existsSync(file));
  if (missing) {
    throw new Error(`${missing} not found: install Debian's fonts-liberation or set OG_FONT_DIR to a folder with it`);
  }
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: FONTS, defaultFontFamily: "Liberation Sans" },
    fitTo: { mode: "original" },
  });
  return resvg.render().asPng();
}

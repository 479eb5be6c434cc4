import { escapeHtml as h } from "../html.ts";

/** Numbers in SVG attributes: at most one decimal, so the markup stays short and deterministic. */
export function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/** Whole percent of a share (0..1), e.g. 0.916 -> "92%". */
export function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

export interface SvgFrame {
  /** Prefix of the ids of <title> and <desc>; must be unique in the page. */
  id: string;
  width: number;
  height: number;
  /** Short name of the chart (the <title>). */
  title: string;
  /** What it shows, or where its figures are as text (the <desc>). */
  description: string;
  className: string;
}

/**
 * An inline SVG image with its text alternative: role="img" named by its <title> and described by
 * its <desc>, so screen readers announce one image instead of every shape and label inside it.
 */
export function svgImage(frame: SvgFrame, body: string): string {
  const { id, width, height, title, description, className } = frame;
  return (
    `<svg class="${h(className)}" viewBox="0 0 ${n(width)} ${n(height)}" width="${n(width)}" height="${n(height)}"` +
    ` role="img" aria-labelledby="${h(id)}-title" aria-describedby="${h(id)}-desc" focusable="false">` +
    `<title id="${h(id)}-title">${h(title)}</title><desc id="${h(id)}-desc">${h(description)}</desc>${body}</svg>`
  );
}

import type { PolarityCounts } from "@riverbend/shared/schemas/insights.ts";
import { escapeHtml as h } from "../html.ts";
import { n, percent, svgImage } from "./svg.ts";

const count = new Intl.NumberFormat("en-US");

/** What the aspect chart needs of an aspect: its name and its polarity counts. */
export interface AspectFigures extends Pick<PolarityCounts, "mentions" | "positive" | "negative" | "share_positive"> {
  label: string;
}

/** "23 of 25 positive", the denominator being the reviews that judge the aspect one way. */
export function positiveOf(aspect: Pick<PolarityCounts, "positive" | "negative">): string {
  return `${count.format(aspect.positive)} of ${count.format(aspect.positive + aspect.negative)} positive`;
}

export function mentionsText(mentions: number): string {
  return `${count.format(mentions)} ${mentions === 1 ? "mention" : "mentions"}`;
}

const WIDTH = 320;
const ROW = 46;
const BAR = 12;

/**
 * Share positive per aspect as stacked horizontal bars (positive, then negative), each under its
 * label and its share with the counts behind it ("92% · 23 of 25"). Two lines per aspect keep the
 * chart narrow, so it stays legible on a phone. Aspects below the publication threshold
 * (share_positive null) get a note, "too few reviews to rate", instead of a share that would mean little.
 */
export function aspectChart(aspects: readonly AspectFigures[], id = "aspect-chart"): string {
  const body = aspects
    .map((aspect, i) => {
      const top = i * ROW;
      const text = n(top + 16);
      const y = n(top + 24);
      const polar = aspect.positive + aspect.negative;
      const label = `<text x="0" y="${text}" class="chart-label">${h(aspect.label)}</text>`;
      if (aspect.share_positive === null || polar === 0) {
        return (
          `${label}<text x="${WIDTH}" y="${text}" text-anchor="end" class="chart-note">too few to rate</text>` +
          `<rect x="0" y="${y}" width="${WIDTH}" height="${BAR}" rx="3" class="chart-track"/>`
        );
      }
      const positive = (aspect.positive / polar) * WIDTH;
      return (
        label +
        `<text x="${WIDTH}" y="${text}" text-anchor="end" class="chart-figure">` +
        `${percent(aspect.share_positive)} · ${aspect.positive} of ${polar}</text>` +
        `<rect x="0" y="${y}" width="${WIDTH}" height="${BAR}" rx="3" class="chart-neg"/>` +
        (positive > 0 ? `<rect x="0" y="${y}" width="${n(positive)}" height="${BAR}" rx="3" class="chart-pos"/>` : "")
      );
    })
    .join("");
  const svg = svgImage(
    {
      id,
      width: WIDTH,
      height: Math.max(1, aspects.length) * ROW - 8,
      title: "Share of positive judgements per aspect",
      description: aspects
        .map(
          (a) =>
            `${a.label}: ${a.share_positive === null ? "too few to rate" : `${percent(a.share_positive)} (${positiveOf(a)})`}, ${mentionsText(a.mentions)}`,
        )
        .join("; "),
      className: "chart aspect-chart",
    },
    body,
  );
  const table =
    `<div class="visually-hidden"><table><caption>Aspect figures</caption><thead><tr><th scope="col">Aspect</th>` +
    `<th scope="col">Positive</th><th scope="col">Negative</th><th scope="col">Share positive</th>` +
    `<th scope="col">Mentions</th></tr></thead><tbody>` +
    aspects
      .map(
        (a) =>
          `<tr><th scope="row">${h(a.label)}</th><td>${a.positive}</td><td>${a.negative}</td>` +
          `<td>${a.share_positive === null ? "too few to rate" : percent(a.share_positive)}</td><td>${a.mentions}</td></tr>`,
      )
      .join("") +
    `</tbody></table></div>`;
  return `<figure class="chart-figure-block" id="${h(id)}">${svg}${table}</figure>`;
}

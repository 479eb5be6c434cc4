import type { Business } from "../../schemas/business.ts";
import { listingPath } from "../browser/listings.ts";
import { escapeHtml as h } from "../html.ts";

const DAY_NAMES: Record<string, string> = {
  Mo: "Mon",
  Tu: "Tue",
  We: "Wed",
  Th: "Thu",
  Fr: "Fri",
  Sa: "Sat",
  Su: "Sun",
};
const WEEK = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];

/** A North American number as people write it, "(916) 555-0142"; any other number as stored. */
export function displayPhone(telephone: string): string {
  const nanp = /^\+1[ -]?(\d{3})[ -]?(\d{3})[ -]?(\d{4})$/.exec(telephone);
  return nanp ? `(${nanp[1]}) ${nanp[2]}-${nanp[3]}` : telephone;
}

/** "07:00" -> "7 am", "12:30" -> "12:30 pm", "00:00" -> "12 am". */
export function displayTime(clock: string): string {
  const [hours = 0, minutes = 0] = clock.split(":").map(Number);
  const suffix = hours < 12 ? "am" : "pm";
  const twelve = hours % 12 === 0 ? 12 : hours % 12;
  return `${twelve}${minutes === 0 ? "" : `:${String(minutes).padStart(2, "0")}`} ${suffix}`;
}

/** Day codes as runs: ["Mo","Tu","We","Th","Fr"] -> "Mon–Fri", ["Mo","We"] -> "Mon, Wed". */
export function displayDays(days: readonly string[]): string {
  const sorted = [...new Set(days)].sort((a, b) => WEEK.indexOf(a) - WEEK.indexOf(b));
  const runs: string[][] = [];
  for (const day of sorted) {
    const run = runs.at(-1);
    if (run && WEEK.indexOf(day) === WEEK.indexOf(run.at(-1) ?? "") + 1) run.push(day);
    else runs.push([day]);
  }
  return runs
    .map((run) => {
      const first = DAY_NAMES[run[0] ?? ""] ?? "";
      const last = DAY_NAMES[run.at(-1) ?? ""] ?? "";
      if (run.length === 1) return first;
      return run.length === 2 ? `${first}, ${last}` : `${first}–${last}`;
    })
    .join(", ");
}

/** The business header of the home page: who, how to call, where, when, and the licence. */
export function businessHeaderHtml(business: Business, rating: string): string {
  const { address } = business;
  const hours = business.opening_hours
    .map((o) => `<li>${displayDays(o.days)} <span>${displayTime(o.opens)}–${displayTime(o.closes)}</span></li>`)
    .join("");
  const areas = business.service_areas
    .map((area) => `<li><a href="${listingPath({ kind: "area", value: area.id })}">${h(area.name)}</a></li>`)
    .join("");
  const phone = displayPhone(business.telephone);
  return (
    `<section class="hero" aria-labelledby="business-name"><div class="hero-text">` +
    `<p class="eyebrow">Verified customer reviews</p><h1 id="business-name">${h(business.name)}</h1>` +
    `<p class="lede">${h(business.description)}</p>${rating}` +
    `<p class="cta"><a class="button" href="tel:${h(business.telephone)}">Call ${h(phone)}</a>` +
    (business.emergency_service ? ` <span class="emergency">${h(business.emergency_service)}</span>` : "") +
    `</p></div><dl class="facts">` +
    `<div><dt>Phone</dt><dd><a href="tel:${h(business.telephone)}">${h(phone)}</a></dd></div>` +
    `<div><dt>Licence</dt><dd>${h(business.licence_number)}</dd></div>` +
    `<div><dt>Address</dt><dd>${h(address.street_address)}<br>${h(address.locality)}, ${h(address.region)} ${h(address.postal_code)}</dd></div>` +
    `<div><dt>Opening hours</dt><dd><ul class="plain">${hours}</ul></dd></div>` +
    `<div class="wide"><dt>Areas served</dt><dd><ul class="inline-list">${areas}</ul></dd></div>` +
    `</dl></section>`
  );
}

/**
 * Review dates are calendar dates in the business's time zone. Feeds and HTTP need instants, so a
 * date stands for local midnight; these helpers compute that instant and its UTC offset.
 */

// Creating an Intl.DateTimeFormat costs ~0.1 ms; a 100k-review build asks for offsets 200k times.
// Both caches are bounded by the distinct zones and dates in the data (a few thousand dates).
const formatters = new Map<string, Intl.DateTimeFormat>();
const midnights = new Map<string, { instant: number; offset: number }>();

function offsetMinutes(instant: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    formatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? "");
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** The instant (ms since epoch) of local midnight on `date` (YYYY-MM-DD) in `timeZone`. */
export function localMidnight(date: string, timeZone: string): { instant: number; offset: number } {
  const key = `${timeZone} ${date}`;
  const known = midnights.get(key);
  if (known) return known;
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  let offset = offsetMinutes(utcMidnight, timeZone);
  // The offset at UTC midnight can differ from the one at local midnight around DST changes. Where
  // DST starts at midnight itself, 00:00 does not exist and the corrected offset would land on the
  // day before: then the first instant of the day is the change, expressed with the old offset.
  const corrected = offsetMinutes(utcMidnight - offset * 60_000, timeZone);
  if (corrected !== offset && offsetMinutes(utcMidnight - corrected * 60_000, timeZone) === corrected) {
    offset = corrected;
  }
  const result = { instant: utcMidnight - offset * 60_000, offset };
  midnights.set(key, result);
  return result;
}

/** RFC 3339 date-time of local midnight with its numeric offset, e.g. 2025-03-02T00:00:00-08:00. */
export function rfc3339(date: string, timeZone: string): string {
  const { offset } = localMidnight(date, timeZone);
  if (offset === 0) return `${date}T00:00:00Z`;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${date}T00:00:00${sign}${hh}:${mm}`;
}

/** HTTP-date (RFC 9110) of local midnight on `date`. */
export function httpDate(date: string, timeZone: string): string {
  return new Date(localMidnight(date, timeZone).instant).toUTCString();
}

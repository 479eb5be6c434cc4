/**
 * Review dates are calendar dates in the business's time zone. Feeds and HTTP need instants, so a
 * date stands for local midnight; these helpers compute that instant and its UTC offset.
 */

function offsetMinutes(instant: number, timeZone: string): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(instant)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? "");
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** The instant (ms since epoch) of local midnight on `date` (YYYY-MM-DD) in `timeZone`. */
export function localMidnight(date: string, timeZone: string): { instant: number; offset: number } {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  let offset = offsetMinutes(utcMidnight, timeZone);
  // The offset at UTC midnight can differ from the one at local midnight around DST changes.
  const corrected = offsetMinutes(utcMidnight - offset * 60_000, timeZone);
  if (corrected !== offset) offset = corrected;
  return { instant: utcMidnight - offset * 60_000, offset };
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

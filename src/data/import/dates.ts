import { todayIn } from "../load-dataset.ts";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

function iso(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const fullYear = (year: string) => (year.length === 2 ? 2000 + Number(year) : Number(year));

/**
 * Reads the date forms exports use and returns the business's local date (YYYY-MM-DD):
 * `2025-03-02`, `2025/03/02`, `03/02/2025` and `3/2/25` (month first, as in the US, unless the first
 * number is over 12), `02.03.2025` (day first), `March 2, 2025`, `2 Mar 2025`, and timestamps with a
 * time zone (`2025-03-02T18:20:00Z`), which are converted to the business's time zone. A date
 * followed by a time without a zone, as spreadsheets write it (`3/2/2025 14:05`, `2025-03-02 2:05 PM`),
 * is a local time: its date is the date.
 */
export function parseLocalDate(text: string, timeZone: string): string | undefined {
  const value = text.trim();
  const wallTime = / ([01]?\d|2[0-3]):[0-5]\d(:[0-5]\d)?( ?[AaPp]\.?[Mm]\.?)?$/.exec(value);
  if (wallTime) return parseLocalDate(value.slice(0, wallTime.index).replace(/,$/, ""), timeZone);
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(value);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return a > 12 ? iso(fullYear(m[3] ?? ""), b, a) : iso(fullYear(m[3] ?? ""), a, b);
  }
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(value);
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^([A-Za-z]{3,})\.? (\d{1,2}),? (\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS.indexOf((m[1] ?? "").slice(0, 3).toLowerCase()) + 1;
    return month > 0 ? iso(Number(m[3]), month, Number(m[2])) : undefined;
  }
  m = /^(\d{1,2}) ([A-Za-z]{3,})\.?,? (\d{4})$/.exec(value);
  if (m) {
    const month = MONTHS.indexOf((m[2] ?? "").slice(0, 3).toLowerCase()) + 1;
    return month > 0 ? iso(Number(m[3]), month, Number(m[1])) : undefined;
  }
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) {
    const instant = new Date(value.replace(" ", "T"));
    return Number.isNaN(instant.getTime()) ? undefined : todayIn(timeZone, instant);
  }
  return undefined;
}

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

/**
 * The name a review shows: first name and last initial, "Maria G." for "Maria Garcia" or
 * "maria garcia". A name already in that form, or a single word, is kept. E-mail addresses and phone
 * numbers are never a name: undefined tells the caller to refuse them.
 */
export function displayName(full: string): string | undefined {
  let name = full.normalize("NFC").replace(/\s+/g, " ").trim();
  if (name === "" || name.includes("@") || /\d{3}/.test(name)) return undefined;
  // "Garcia, Maria" (a customer list's order) is Maria G.; "van der Berg, Piet" is Piet V.
  const comma = /^([^,]+), ?([^,]+)$/.exec(name);
  if (comma) name = `${comma[2]} ${comma[1]}`;
  // "Dr. Jane Roe" is Jane R.: a title is not a first name.
  const words = name.split(" ");
  while (words.length > 2 && TITLES.test(words[0] ?? "")) words.shift();
  const first = capitalise(words[0] ?? "");
  if (words.length === 1) return first;
  const last = (comma ? comma[1] : words[words.length - 1]) ?? "";
  const initial = Array.from(last.replace(/^[^\p{L}]+/u, ""))[0];
  return initial ? `${first} ${initial.toUpperCase()}.` : first;
}

const TITLES = /^(mr|mrs|ms|miss|mx|dr|prof)\.?$/i;

function capitalise(word: string): string {
  // Names given in all lower or all upper case are written the usual way; "McKay" is left alone.
  if (word !== word.toLowerCase() && word !== word.toUpperCase()) return word;
  const [head = "", ...rest] = Array.from(word.toLowerCase());
  return head.toUpperCase() + rest.join("");
}

/**
 * What a spreadsheet may take for the start of a formula: `= + - @` and their full-width forms
 * (＝ ＋ － ＠, which some spreadsheets read as the ASCII ones), after any run of characters it
 * skips or trims first (spaces, NBSP and other Unicode spaces, line breaks, zero-width spaces,
 * joiners, the BOM). A tab or carriage return at the start is refused too: a spreadsheet may
 * split the cell there and run what follows.
 */
const FORMULA_START =
  /^(?:[\t\r]|[\s\u180e\u200b-\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;

/**
 * A text cell as a spreadsheet must show it: with a leading `'` when it could run as a formula,
 * so it is displayed instead of executed (numbers are written as numbers and never need it).
 */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * Month names and abbreviations: English, plus Spanish, French, German and Portuguese receipts.
 * For dates (extract.ts) and for a date printed beside a logo (vendors.ts).
 */
export const MONTH_NAMES: Array<[number, string[]]> = [
  [1, ['jan', 'january', 'ene', 'enero', 'janv', 'janvier', 'januar', 'jän', 'janeiro']],
  [2, ['feb', 'february', 'febrero', 'fév', 'févr', 'fev', 'fevr', 'février', 'fevrier', 'februar', 'fevereiro']],
  [3, ['mar', 'march', 'marzo', 'mars', 'märz', 'marz', 'março', 'marco']],
  [4, ['apr', 'april', 'abr', 'abril', 'avr', 'avril']],
  [5, ['may', 'mayo', 'mai', 'maio']],
  [6, ['jun', 'june', 'junio', 'juin', 'juni', 'junho']],
  [7, ['jul', 'july', 'julio', 'juil', 'juillet', 'juli', 'julho']],
  [8, ['aug', 'august', 'ago', 'agosto', 'août', 'aout']],
  [9, ['sep', 'sept', 'september', 'septiembre', 'setiembre', 'septembre', 'set', 'setembro']],
  [10, ['oct', 'october', 'octubre', 'octobre', 'okt', 'oktober', 'out', 'outubro']],
  [11, ['nov', 'november', 'noviembre', 'novembre', 'novembro']],
  [12, ['dec', 'december', 'dic', 'diciembre', 'déc', 'décembre', 'decembre', 'dez', 'dezember', 'dezembro']],
]
export const MONTHS: Record<string, number> = Object.fromEntries(MONTH_NAMES.flatMap(([n, names]) => names.map((name) => [name, n])))

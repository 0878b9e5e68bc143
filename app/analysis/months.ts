/**
 * Month names and abbreviations: English, plus Spanish, French, German, Portuguese, Italian and Dutch
 * receipts (a real SNCF ticket sold in Italy prints "LUNEDI 02 FEBBRAIO 2026"). Italian and Dutch
 * only in full: their short forms are words and codes too ("Gen 3" a model, "MAG" a magazine).
 * For dates (extract.ts) and for a date printed beside a logo (vendors.ts).
 */
export const MONTH_NAMES: Array<[number, string[]]> = [
  [1, ['jan', 'january', 'ene', 'enero', 'janv', 'janvier', 'januar', 'jän', 'janeiro', 'gennaio', 'januari']],
  [2, ['feb', 'february', 'febrero', 'fév', 'févr', 'fev', 'fevr', 'février', 'fevrier', 'februar', 'fevereiro', 'febbraio', 'februari']],
  [3, ['mar', 'march', 'marzo', 'mars', 'märz', 'marz', 'março', 'marco', 'maart']],
  [4, ['apr', 'april', 'abr', 'abril', 'avr', 'avril', 'aprile']],
  [5, ['may', 'mayo', 'mai', 'maio', 'maggio', 'mei']],
  [6, ['jun', 'june', 'junio', 'juin', 'juni', 'junho', 'giugno']],
  [7, ['jul', 'july', 'julio', 'juil', 'juillet', 'juli', 'julho', 'luglio']],
  [8, ['aug', 'august', 'ago', 'agosto', 'août', 'aout', 'augustus']],
  [9, ['sep', 'sept', 'september', 'septiembre', 'setiembre', 'septembre', 'set', 'setembro', 'settembre']],
  [10, ['oct', 'october', 'octubre', 'octobre', 'okt', 'oktober', 'out', 'outubro', 'ottobre']],
  [11, ['nov', 'november', 'noviembre', 'novembre', 'novembro']],
  [12, ['dec', 'december', 'dic', 'diciembre', 'déc', 'décembre', 'decembre', 'dez', 'dezember', 'dezembro', 'dicembre']],
]
export const MONTHS: Record<string, number> = Object.fromEntries(MONTH_NAMES.flatMap(([n, names]) => names.map((name) => [name, n])))

/**
 * Pure: which script a receipt is printed in, and so which language data reads it (issue 37).
 *
 * Every photo is read first with English (tesseract `eng`): an English receipt costs nothing more.
 * The other readers are asked only on evidence:
 * - Latin script with European signs (€, EUR, accented letters, European receipt words): read again
 *   with the combined `eng+deu+fra+spa+ita` model;
 * - a page English cannot make sense of: PaddleOCR's Chinese model (the second reader, asked anyway
 *   when a field is missing) names Han; a page's shapes name Arabic, Thai and Devanagari
 *   (script-shapes.ts); English's reading of Cyrillic has a tell (capitals inside words: "KaccoBbIM");
 *   a Korean probe (`kor`) names Hangul.
 * Han and Hangul are read (`chi_sim`, `kor`); any other script is refused with a clear message, never
 * guessed at.
 */

export const SCRIPTS = ['Latin', 'Han', 'Hangul', 'Japanese', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Thai', 'Devanagari'] as const
export type Script = (typeof SCRIPTS)[number]

/** Scripts ReCircle reads, and the tesseract language data for each (Latin: English, or European on evidence). */
export const READABLE_SCRIPTS: ReadonlySet<Script> = new Set(['Latin', 'Han', 'Hangul'])

const RANGES: Array<[Script, RegExp]> = [
  ['Latin', /[A-Za-z\u00C0-\u024F]/],
  ['Hangul', /[\uAC00-\uD7AF\u1100-\u11FF\u3130-\u318F]/],
  ['Japanese', /[\u3040-\u30FF]/],
  ['Han', /[\u4E00-\u9FFF\u3400-\u4DBF\uF900-\uFAFF]/],
  ['Cyrillic', /[\u0400-\u04FF]/],
  ['Greek', /[\u0370-\u03FF]/],
  ['Arabic', /[\u0600-\u06FF\u0750-\u077F]/],
  ['Hebrew', /[\u0590-\u05FF]/],
  ['Thai', /[\u0E00-\u0E7F]/],
  ['Devanagari', /[\u0900-\u097F]/],
]

/** Letters of each script in `text` (digits, punctuation and spaces count for none). */
export function countScripts(text: string): Record<Script, number> {
  const counts = Object.fromEntries(SCRIPTS.map((s) => [s, 0])) as Record<Script, number>
  for (const ch of text) {
    for (const [script, range] of RANGES) {
      if (range.test(ch)) {
        counts[script]++
        break
      }
    }
  }
  return counts
}

/** The script of at least `share` of the letters, with at least `min` of them; else null. */
export function dominantScript(text: string, share = 0.5, min = 4): Script | null {
  const counts = countScripts(text)
  const letters = SCRIPTS.reduce((s, k) => s + counts[k], 0)
  if (letters === 0) return null
  let best: Script = 'Latin'
  for (const s of SCRIPTS) if (counts[s] > counts[best]) best = s
  return counts[best] >= min && counts[best] >= share * letters ? best : null
}

/** A share of the letters in this script (Han on a Chinese page read by PaddleOCR: 0.8-1). */
export function scriptShare(text: string, script: Script): number {
  const counts = countScripts(text)
  const letters = SCRIPTS.reduce((s, k) => s + counts[k], 0)
  return letters === 0 ? 0 : counts[script] / letters
}

const EUROPEAN_LETTERS = /[äöüßÄÖÜàâçèêëîïôœùûÿÀÂÇÈÊËÎÏÔŒÙÛáíóúñÁÍÓÚÑìòÌÒ]/
/** Receipt words of German, French, Spanish and Italian that English receipts do not print. */
const EUROPEAN_WORDS =
  /\b(?:gesamt\w*|summe|betrag|mwst|ust|quittung|fahrkarte|fahrschein|fahrpreis|rechnung|zahlung|ttc|tva|montant|re[çc]u|facture|billet|pay[ée]|importe|fecha|billete|recibo|factura|pagado|tarifa|totale|importo|scontrino|biglietto|ricevuta|pagato|tariffa)\b/i

/**
 * Each European language's own words and letters, as English's reading of a receipt in it prints
 * them: common short words, receipt words, and letters English has none of.
 */
const LANGUAGE_SIGNS: Record<EuropeanLanguage, RegExp> = {
  deu: /\b(?:und|der|die|das|mit|f[üu]r|von|bitte|ihre?n?|gesamt\w*|summe|betrag|mwst|ust|quittung|fahrkarte|fahrschein|fahrpreis|rechnung|zahlung|datum|uhr|g[üu]ltig\w*|kasse|r[üu]ckgeld|erstattung|reservierung)\b|[äöüß]/gi,
  fra: /\b(?:les|des|du|et|pour|avec|vous|votre|ttc|tva|montant|re[çc]u|facture|billet|pay[ée]|merci|esp[èe]ces|voyage|prix)\b|[çœèêû]/gi,
  spa: /\b(?:el|los|las|del|con|para|su|importe|fecha|billete|recibo|factura|pagado|tarifa|gracias|efectivo|viaje|precio)\b|[ñ¿¡]/gi,
  ita: /\b(?:il|gli|della|dei|con|per|totale|importo|scontrino|biglietto|ricevuta|pagato|tariffa|grazie|contanti|viaggio|prezzo)\b|[ìò]/gi,
}
export type EuropeanLanguage = 'deu' | 'fra' | 'spa' | 'ita'

/**
 * The one European language a page's words name (issue 37), read in it alone: at least two signs of
 * it and twice as many as of any other. Otherwise null: the four with English together.
 */
export function europeanLanguage(text: string): EuropeanLanguage | null {
  const counts = (Object.keys(LANGUAGE_SIGNS) as EuropeanLanguage[]).map((language) => ({ language, n: (text.match(LANGUAGE_SIGNS[language]) ?? []).length })).sort((a, b) => b.n - a.n)
  const [best, next] = counts
  return best.n >= 2 && best.n >= 2 * next.n ? best.language : null
}

/** Signs that a Latin-script receipt is German, French, Spanish or Italian: the European model reads it better. */
export function hasEuropeanSigns(text: string): boolean {
  return /€|\bEUR\b/.test(text) || EUROPEAN_LETTERS.test(text) || EUROPEAN_WORDS.test(text)
}

/** Words of receipts in English and the European languages read: two of them and the page is Latin script. */
const RECEIPT_WORDS =
  /\b(?:total|subtotal|amount|paid|date|receipt|thank|thanks|fare|trip|ride|fee|tax|card|visa|mastercard|payment|cash|change|ticket|order|store|booking|service|gesamt\w*|summe|betrag|datum|fahrpreis|montant|billet|importe|fecha|billete|totale|importo|biglietto|data)\b/gi

export function receiptWords(text: string): number {
  return (text.match(RECEIPT_WORDS) ?? []).length
}

/** A line tesseract read this surely with a word of four letters in it. */
const SURE_LINE = 80
/** From this page confidence, English made sense of the page (non-Latin pages measured 18-48). */
const LATIN_PAGE_CONFIDENCE = 65

export type ReadingText = { text: string; confidence: number; lines: ReadonlyArray<{ text: string; confidence: number }> }

/** English made sense of the page: a confident reading, or three lines of words read surely. */
export function readsAsLatin(reading: ReadingText): boolean {
  return reading.confidence >= LATIN_PAGE_CONFIDENCE || sureWordLines(reading) >= 3
}

/**
 * Lines read surely with a word of four letters in them. (PaddleOCR's page confidence is no
 * guide: it drops the boxes it cannot read, and a Korean page's digits alone score 94.)
 */
function sureWordLines(reading: ReadingText): number {
  return reading.lines.filter((l) => l.confidence >= SURE_LINE && /[A-Za-z]{4,}/.test(l.text)).length
}

/**
 * English's reading of a Cyrillic page: capitals inside words where Latin puts none ("KaccoBbIM",
 * "MeTPOMNOINTEH", "CepBucHbIN": Б, В, Н, Т read as B, B, H, T). Share of the words of four or more
 * letters with a capital after a small letter; Latin receipts (UberX, LinkPass) stay far below.
 */
export function cyrillicReadAsLatin(text: string): number {
  const words = text.match(/[A-Za-z0-9]{4,}/g)?.filter((w) => /[A-Za-z]{3}/.test(w)) ?? []
  if (words.length < 4) return 0
  return words.filter((w) => /[a-z][A-Z]|[a-z][0-9][a-z]/.test(w)).length / words.length
}

export type ScriptEvidence = {
  /** The English reading. */
  first: ReadingText
  /** PaddleOCR's reading (its Chinese model reads Han), when it was asked. */
  second?: ReadingText | null
  /** What the page's shapes say (script-shapes.ts): Arabic, Thai, Devanagari, or null. */
  shapes?: Script | null
  /** A reading named a known service (the vendor dictionary): the page is Latin script, however blurred. */
  namedService?: boolean
}

/**
 * What the readings so far say about the script: 'Latin' (read on), a script named, or 'probe'
 * (neither reader made sense of it and nothing named it: the Korean probe decides).
 */
export function scriptFromReadings(e: ScriptEvidence): Script | 'probe' {
  if (readsAsLatin(e.first)) return 'Latin'
  const secondText = e.second?.text ?? ''
  // PaddleOCR's Chinese model reads Han (and Japanese kanji): a page of it is Chinese to us, even
  // when its Han names a service ('出租汽车', a taxi). Han read surely: on a Korean page it reads a
  // few Hangul boxes as Han it is unsure of ("叫叠烈班" at 65 on a real card slip), and drops the rest.
  if (e.second && countScripts(sureText(e.second)).Han >= 4 && scriptShare(secondText, 'Han') >= 0.3) return 'Han'
  if (e.namedService) return 'Latin'
  if (receiptWords(e.first.text) + receiptWords(secondText) >= 2) return 'Latin'
  if (e.shapes) return e.shapes
  // PaddleOCR knows a few Cyrillic letters (И, Я, Й, З, г, П); English's capitals inside words are the rest.
  if (cyrillicReadAsLatin(e.first.text) >= 0.3 && (countScripts(secondText).Cyrillic > 0 || cyrillicReadAsLatin(secondText) >= 0.3)) return 'Cyrillic'
  if (e.second && sureWordLines(e.second) >= 3) return 'Latin'
  return 'probe'
}

/**
 * The lines a reader read surely (PaddleOCR's line scores): on the real corpus's and the fresh sets'
 * Chinese pages, 35-212 Han characters are in lines scored 90 or more; on five real Korean receipts,
 * 0-1 of the Han characters PaddleOCR made of their Hangul (decision 123).
 */
const SURE_SCRIPT_LINE = 90

function sureText(reading: ReadingText): string {
  return reading.lines.filter((l) => l.confidence >= SURE_SCRIPT_LINE).map((l) => l.text).join('\n')
}

/** The Korean probe read Hangul: most of its letters, surely enough. */
export function readsAsHangul(reading: ReadingText): boolean {
  return reading.confidence >= 55 && countScripts(reading.text).Hangul >= 4 && scriptShare(reading.text, 'Hangul') >= 0.5
}

/** The analysis' reason when a receipt is in a script ReCircle cannot read. */
export function unreadableScriptReason(script: Script): string {
  return `This receipt is in a script we can't read yet (${script}). Upload a receipt in English, a European language, Korean or Chinese, or forward the e-mail receipt.`
}

/**
 * Pure: PaddleOCR's text boxes -> the lines the extraction rules read (issue 13, decision 011).
 *
 * The recognizer reads one box at a time, and one receipt line is often several boxes ("Total" on the
 * left, "$12.40" on the right). The lines are rebuilt from the boxes: the page's skew is removed
 * (the median angle of the long boxes), then boxes join a line when they overlap it vertically by
 * more than half the smaller height. The recognizer (a Chinese and English model) drops spaces,
 * emits full-width punctuation and reads blurred commas as full stops; `cleanLine` restores what
 * `app/analysis/extract.ts` expects.
 */
import { withinOneEdit } from '~/utils/text'

export type Point = { x: number; y: number }
/**
 * One recognised box: its text, the recognizer's 0..1 score (the mean of its characters'), the
 * lowest 0..1 score of a digit in it (null: no digit, or not scored), and its four corners
 * (clockwise from top-left).
 */
export type TextBox = { text: string; confidence: number; digitConfidence?: number | null; digitScores?: ReadonlyArray<number> | null; points: [Point, Point, Point, Point] }
/**
 * A rebuilt line with the lowest score of its boxes and of its digits, on tesseract's 0..100 scale,
 * and each digit's score in the line's order (null when a box has none).
 */
export type TextLine = { text: string; confidence: number; digitConfidence: number | null; digitScores?: number[] | null }

type Placed = { box: TextBox; angle: number; cx: number; cy: number; h: number; w: number; top: number; bottom: number; left: number }

function place(box: TextBox): Placed {
  const [p0, p1, p2, p3] = box.points
  const angle = Math.atan2(p1.y - p0.y + (p2.y - p3.y), p1.x - p0.x + (p2.x - p3.x))
  const cx = (p0.x + p1.x + p2.x + p3.x) / 4
  const cy = (p0.y + p1.y + p2.y + p3.y) / 4
  const h = (Math.hypot(p3.x - p0.x, p3.y - p0.y) + Math.hypot(p2.x - p1.x, p2.y - p1.y)) / 2
  const w = (Math.hypot(p1.x - p0.x, p1.y - p0.y) + Math.hypot(p2.x - p3.x, p2.y - p3.y)) / 2
  return { box, angle, cx, cy, h, w, top: 0, bottom: 0, left: 0 }
}

function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Fraction of the smaller height two boxes must share to be on one line. */
const SAME_LINE_OVERLAP = 0.5
/** Rows compared with a new box: receipts are read top to bottom, so only the last few can match. */
const ROWS_LOOKED_BACK = 4

export function rebuildLines(boxes: TextBox[]): TextLine[] {
  const placed = boxes.filter((b) => b.text.trim()).map(place)
  if (placed.length === 0) return []
  // The page's skew: the median angle of boxes wider than twice their height (short boxes tilt randomly).
  const skew = median(placed.filter((p) => p.w > 2 * p.h).map((p) => p.angle))
  const cos = Math.cos(-skew)
  const sin = Math.sin(-skew)
  for (const p of placed) {
    const x = p.cx * cos - p.cy * sin
    const y = p.cx * sin + p.cy * cos
    p.top = y - p.h / 2
    p.bottom = y + p.h / 2
    p.left = x - p.w / 2
  }
  alignFormValues(placed)
  placed.sort((a, b) => a.top + a.bottom - (b.top + b.bottom))
  const rows: { items: Placed[]; top: number; bottom: number; h: number }[] = []
  for (const p of placed) {
    let best: (typeof rows)[number] | null = null
    let bestOverlap = 0
    for (const row of rows.slice(-ROWS_LOOKED_BACK)) {
      const overlap = (Math.min(row.bottom, p.bottom) - Math.max(row.top, p.top)) / Math.min(row.h, p.h)
      if (overlap > SAME_LINE_OVERLAP && overlap > bestOverlap) {
        best = row
        bestOverlap = overlap
      }
    }
    if (best) {
      best.items.push(p)
      best.top = Math.min(best.top, p.top)
      best.bottom = Math.max(best.bottom, p.bottom)
      best.h = median(best.items.map((i) => i.h))
    } else {
      rows.push({ items: [p], top: p.top, bottom: p.bottom, h: p.h })
    }
  }
  return rows.map((row) => {
    row.items.sort((a, b) => a.left - b.left)
    return {
      // Two spaces between boxes: the gap between a label and its amount, as tesseract keeps it.
      text: cleanLine(row.items.map((i) => i.box.text.trim()).join('  ')),
      confidence: Math.round(Math.min(...row.items.map((i) => i.box.confidence)) * 1000) / 10,
      digitConfidence: lowestDigit(row.items.map((i) => i.box)),
      digitScores: eachDigit(row.items.map((i) => i.box)),
    }
  })
}

/** The boxes' digit scores in line order; null unless every box with a digit was scored digit by digit. */
function eachDigit(boxes: TextBox[]): number[] | null {
  const scores: number[] = []
  for (const box of boxes) {
    const digits = box.text.trim().match(/[0-9\uFF10-\uFF19]/g)?.length ?? 0
    if (digits === 0) continue
    if (!box.digitScores || box.digitScores.length !== digits) return null
    for (const score of box.digitScores) scores.push(Math.round(score * 1000) / 10)
  }
  return scores
}

/** A form's label: one word ending with its colon ("上车：", "Datum:"), nothing after it. */
const FORM_LABEL = /^[^\s:：]{1,12}\s?[:：]$/u
/** Labels and values needed before a form's offset is believed. */
const FORM_MIN_PAIRS = 4

/**
 * A form whose values were printed lower than its labels: a Chinese taxi invoice's pre-printed
 * labels ("上车：", "单价：", "金额：") and the meter's dot-matrix values, half a row down (a real
 * Shenzhen invoice: each value's centre 14-17 px under its label's, rows 32 px apart). Each value
 * then shares about half its height with its own label and half with the next one, and went to
 * whichever it overlapped more: "里程：" got the rate, "金额：" the waiting time. Where at least four
 * values to the right of the labels' column sit consistently lower than the label above them (nearly
 * all within 0.15 of a row of their median), by between a quarter and three quarters of a row,
 * they are moved up by that offset before the lines are built. A form printed in line (an offset
 * under a quarter row) is left as it is.
 */
function alignFormValues(placed: Placed[]): void {
  const labels = placed.filter((p) => FORM_LABEL.test(p.box.text.trim())).sort((a, b) => a.top - b.top)
  if (labels.length < FORM_MIN_PAIRS) return
  const column = Math.max(...labels.map((l) => l.left + l.w))
  const pitch = median(labels.slice(1).map((l, i) => l.top - labels[i].top))
  if (!(pitch > 0)) return
  const centre = (p: Placed) => (p.top + p.bottom) / 2
  const offsets: Array<{ value: Placed; offset: number }> = []
  for (const value of placed) {
    if (value.left < column || FORM_LABEL.test(value.box.text.trim())) continue
    // A value above the first label, within a row: the values were printed high, not low, and
    // half a row low cannot be told from half a row high.
    if (centre(value) < centre(labels[0]) && centre(labels[0]) - centre(value) < pitch) return
    // The label above the value's centre, within a row.
    const above = labels.filter((l) => centre(l) <= centre(value)).pop()
    if (above && centre(value) - centre(above) < pitch) offsets.push({ value, offset: centre(value) - centre(above) })
  }
  if (offsets.length < FORM_MIN_PAIRS) return
  const shift = median(offsets.map((o) => o.offset))
  if (shift < 0.25 * pitch || shift > 0.75 * pitch) return
  // Consistently so: nearly every value within a few pixels of that offset (a tilted page whose
  // values drift from in line to a row apart is no offset form: a real Shenzhen invoice's did).
  const consistent = offsets.filter((o) => Math.abs(o.offset - shift) <= 0.15 * pitch)
  if (consistent.length < 0.8 * offsets.length) return
  // Only those: a value printed in line stays in line.
  for (const { value } of consistent) {
    value.top -= shift
    value.bottom -= shift
  }
}

function lowestDigit(boxes: TextBox[]): number | null {
  const scores = boxes.map((b) => b.digitConfidence).filter((c): c is number => typeof c === 'number')
  return scores.length === 0 ? null : Math.round(Math.min(...scores) * 1000) / 10
}

/** A box this many times longer one way than the other shows which way its text runs. */
const ELONGATED = 2
/** Boxes needed, and the share of them that must agree, before the direction is believed. */
const DIRECTION_MIN_BOXES = 3
const DIRECTION_AGREEMENT = 0.75

/**
 * Which way the detected text runs on the page, from the boxes' shape alone (no recognition):
 * 'across' when the long boxes lie left to right (the photo is upright or upside down), 'down' when
 * they stand on end (turned a quarter), null when too few long boxes agree.
 */
export function textRunDirection(boxes: ReadonlyArray<Pick<TextBox, 'points'>>): 'across' | 'down' | null {
  let across = 0
  let down = 0
  for (const { points } of boxes) {
    const xs = points.map((p) => p.x)
    const ys = points.map((p) => p.y)
    const spanX = Math.max(...xs) - Math.min(...xs)
    const spanY = Math.max(...ys) - Math.min(...ys)
    // A box of no size (or no corners) has no direction.
    if (!(Math.max(spanX, spanY) > 0)) continue
    if (spanX >= ELONGATED * spanY) across++
    else if (spanY >= ELONGATED * spanX) down++
  }
  const long = across + down
  if (long < DIRECTION_MIN_BOXES) return null
  if (across >= DIRECTION_AGREEMENT * long) return 'across'
  if (down >= DIRECTION_AGREEMENT * long) return 'down'
  return null
}

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\\.?'
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december']

/** Each rule restores one thing the extraction rules expect; the order matters (widths first). */
const CLEANUP_RULES: Array<(line: string) => string> = [
  // Full-width forms (U+FF01..FF5E) and CJK punctuation to ASCII: '，' '：' '＄' '（' '。'
  (t) =>
    t
      .replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
      .replace(/\u3000/g, ' ')
      .replace(/。/g, '.')
      .replace(/、/g, ',')
      .replace(/[“”]/g, '"')
      .replace(/[‘’]/g, "'")
      .replace(/[—–]/g, '-')
      .replace(/[·•]/g, '.'),
  // A full month name one letter off, before a day: 'Septerber 2' -> 'September 2'
  (t) =>
    t.replace(/\b([A-Za-z]{5,10})(?=\s*\d{1,2}\b)/g, (word) => {
      const month = FULL_MONTHS.find((name) => name !== word.toLowerCase() && withinOneEdit(word.toLowerCase(), name))
      return month ? month[0].toUpperCase() + month.slice(1) : word
    }),
  // A capitals label run into a capitals month before a day: 'DATEJUL7.2026' -> 'DATE JUL7.2026'
  (t) => t.replace(/\b([A-Z]{2,}?)(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEPT?|OCT|NOV|DEC)(?=\s*\d{1,2}\b)/g, '$1 $2'),
  // 'Jan4,2026', 'Mar 22.2026', 'JUN 19.2026' (thermal tickets print capitals) -> 'Jan 4, 2026'
  (t) => t.replace(new RegExp(`\\b(${MONTH})\\s*(\\d{1,2})\\s*[,.]?\\s*((?:19|20)\\d{2})`, 'gi'), '$1 $2, $3'),
  // '4Jan2026', '22 Mar.2026' -> '4 Jan 2026'
  (t) => t.replace(new RegExp(`\\b(\\d{1,2})\\s*(${MONTH})\\s*[,.]?\\s*((?:19|20)\\d{2})`, 'gi'), '$1 $2 $3'),
  // '2026at10:07AM' -> '2026 at 10:07 AM'
  (t) => t.replace(/((?:19|20)\d{2})at(\d)/g, '$1 at $2').replace(/(\d{1,2}:\d{2})\s*([AP]M)\b/gi, '$1 $2'),
  // 'Total$12.40' -> 'Total $12.40'; 'fare12.40' -> 'fare 12.40'
  (t) => t.replace(/([A-Za-z)])(\$|US\$|€|£)/g, '$1 $2').replace(/([a-z]{2,})(\d+[.,]\d{2})\b/g, '$1 $2'),
  // 'TotalCharged' -> 'Total Charged'; 'TOTALCHARGES' -> 'TOTAL CHARGES'
  (t) => t.replace(/([a-z]{2,})([A-Z][a-z]{2,})/g, '$1 $2').replace(/\b(total)([a-z]{4,})/gi, '$1 $2'),
  // '12 .40' and '$ 12.40' inside amounts
  (t) => t.replace(/(\d)\s*([.,])\s*(\d{2})(?!\d)/g, '$1$2$3').replace(/\$\s+(\d)/g, '$$$1'),
]

export function cleanLine(line: string): string {
  let text = line
  for (const rule of CLEANUP_RULES) text = rule(text)
  return text.replace(/\s{3,}/g, '  ').trim()
}

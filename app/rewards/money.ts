// Token amounts are integers in milli-B3TR (decision 003). Floats only ever appear at the edges:
// a B3TR number coming in (b3trToMilli) and a string going out (formatB3tr).

export const MILLI_PER_B3TR = 1000

const MILLI_DIGITS = 3

function assertMilli(milli: number): void {
  if (!Number.isSafeInteger(milli)) {
    throw new RangeError(`Expected an integer milli-B3TR amount, got ${milli}`)
  }
}

/**
 * Converts a B3TR number to milli-B3TR. Works on the number's shortest decimal representation
 * (what `String(n)` prints), so 1.005 is read as "1.005" and not as 1.00499999..., and inputs
 * with up to 3 decimals convert exactly. A 4th decimal rounds half away from zero
 * (1.0005 -> 1001, -1.0005 -> -1001).
 */
export function b3trToMilli(n: number): number {
  if (!Number.isFinite(n)) throw new RangeError(`Expected a finite B3TR amount, got ${n}`)
  const sign = n < 0 ? -1 : 1
  const text = String(Math.abs(n))
  let result: number
  if (text.includes('e')) {
    // Exponent notation: tiny (< 1e-6) or huge (>= 1e21) values. No decimal string to work on.
    result = Math.round(Math.abs(n) * MILLI_PER_B3TR)
  } else {
    const [whole, fraction = ''] = text.split('.')
    const kept = (fraction + '000').slice(0, MILLI_DIGITS)
    const roundUp = fraction.length > MILLI_DIGITS && fraction.charCodeAt(MILLI_DIGITS) >= 53 // '5'
    result = Number(whole) * MILLI_PER_B3TR + Number(kept) + (roundUp ? 1 : 0)
  }
  if (!Number.isSafeInteger(result)) throw new RangeError(`B3TR amount out of range: ${n}`)
  return result === 0 ? 0 : sign * result
}

/**
 * Formats milli-B3TR. By default (issue 40: one format for every amount on screen) with at least one
 * decimal and every digit the ledger holds beyond it: 19000 -> '19.0', 7250 -> '7.25', 12345 ->
 * '12.345'. Never rounded, so a claim dialog names exactly what is claimed.
 * With `decimals`, a fixed number of them (the CSV export's 3), rounded half away from zero, on
 * integers: 12345 with 1 -> '12.3', with 2 '12.35'; -5450 with 1 -> '-5.5'. A value that rounds to
 * zero has no sign ('0.0'). No thousands separators.
 */
export function formatB3tr(milli: number, decimals?: number): string {
  if (decimals === undefined) {
    assertMilli(milli)
    return formatB3tr(milli, MILLI_DIGITS).replace(/(\.\d)0{1,2}$/, '$1').replace(/(\.\d\d)0$/, '$1')
  }
  assertMilli(milli)
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 20) {
    throw new RangeError(`decimals must be an integer from 0 to 20, got ${decimals}`)
  }
  const abs = Math.abs(milli)
  const shown = Math.min(decimals, MILLI_DIGITS)
  const divisor = 10 ** (MILLI_DIGITS - shown)
  let units = Math.floor(abs / divisor)
  if ((abs % divisor) * 2 >= divisor) units += 1
  const scale = 10 ** shown
  const whole = Math.floor(units / scale)
  const fraction = String(units % scale).padStart(shown, '0') + '0'.repeat(decimals - shown)
  const body = decimals === 0 ? String(whole) : `${whole}.${fraction}`
  return milli < 0 && units > 0 ? `-${body}` : body
}

/**
 * Formats with an explicit sign for history rows: '+18.0', '-5.0', '+7.25'. Zero has no sign:
 * '0.0'. The format of every B3TR amount on screen (issue 40: "19.0", "19", "+9.00" and "28.00" for
 * amounts of one kind were four formats).
 */
export function formatSigned(milli: number, decimals?: number): string {
  const body = formatB3tr(milli, decimals)
  if (body.startsWith('-')) return body
  return /[1-9]/.test(body) ? `+${body}` : body
}

/**
 * A B3TR amount as every screen writes it: at least one decimal, exact, and the unit ('19.0 B3TR',
 * '7.25 B3TR', '0.0 B3TR'), rules' whole amounts too ('8.0 B3TR base'). Issue 40 picked one format;
 * decision 007 §6 said one decimal. Only the CSV export (3 decimals) and on-chain reads (the node's
 * own figure) differ.
 */
export function b3trText(milli: number): string {
  return `${formatB3tr(milli)} B3TR`
}

/** The same for a whole number of B3TR from the rules (8, 15). */
export function wholeB3trText(b3tr: number): string {
  return b3trText(b3tr * MILLI_PER_B3TR)
}

/** Whole B3TR rounded down, for the places the spec shows floored totals (home "Total Rewards"). */
export function floorB3tr(milli: number): number {
  assertMilli(milli)
  return Math.floor(milli / MILLI_PER_B3TR)
}

const USD_PATTERN = /^\$?(?:(\d+)(?:\.(\d{0,2}))?|\.(\d{1,2}))$/

/**
 * Parses a dollar amount typed into a form into integer cents: '12.5' -> 1250, '$3.99' -> 399,
 * '.5' -> 50, '0' -> 0. Returns null for anything else: letters, negatives, more than 2 decimals,
 * commas (ambiguous between thousands and decimal separators), empty input.
 * Surrounding whitespace is ignored. Whether 0 is acceptable is the caller's rule.
 */
export function parseUsdToCents(s: string): number | null {
  const match = USD_PATTERN.exec(s.trim())
  if (!match) return null
  const whole = match[1] ?? '0'
  const fraction = ((match[2] ?? match[3] ?? '') + '00').slice(0, 2)
  const cents = Number(whole) * 100 + Number(fraction)
  return Number.isSafeInteger(cents) ? cents : null
}

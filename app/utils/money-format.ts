// A receipt's amount as people read it, in the receipt's own currency (₩27,700, €86.43, $12.34).
// Display only: amounts are never converted. Pure; the UI imports it.

const formatters = new Map<string, Intl.NumberFormat | null>()

/** One formatter per ISO 4217 code, built once; null for a code Intl refuses. */
function formatterFor(code: string): Intl.NumberFormat | null {
  let formatter = formatters.get(code)
  if (formatter === undefined) {
    try {
      formatter = new Intl.NumberFormat('en-US', { style: 'currency', currency: code })
    } catch {
      formatter = null
    }
    formatters.set(code, formatter)
  }
  return formatter
}

/**
 * `value` (27700, not cents) in `currency`: '₩27,700', '¥3,200', '€86.43'. No currency, or USD,
 * keeps the app's dollar format exactly ('$12.34', '$1234.50'); a code Intl does not know shows the
 * number alone rather than a wrong sign.
 */
export function formatAmount(value: number, currency: string | null | undefined): string {
  const code = currency?.trim().toUpperCase() ?? ''
  if (code === '' || code === 'USD') return `$${value.toFixed(2)}`
  return formatterFor(code)?.format(value) ?? value.toFixed(2)
}

/** An amount stored in cents ('—' when none was read), in its receipt's currency: the staff cards' figures. */
export function formatCents(cents: number | null, currency: string | null | undefined): string {
  return cents === null ? '—' : formatAmount(cents / 100, currency)
}

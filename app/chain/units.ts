const WEI_PER_UNIT = 10n ** 18n

/** A wei amount (VET, VTHO or B3TR: all 18 decimals) as a decimal string with up to `decimals` places, rounded down. */
export function formatUnits(wei: bigint, decimals = 2): string {
  const negative = wei < 0n
  const abs = negative ? -wei : wei
  const whole = abs / WEI_PER_UNIT
  const scale = 10n ** BigInt(decimals)
  const fraction = ((abs % WEI_PER_UNIT) * scale) / WEI_PER_UNIT
  const text = decimals > 0 ? `${whole}.${fraction.toString().padStart(decimals, '0')}` : `${whole}`
  return negative ? `-${text}` : text
}

export const formatVtho = (wei: bigint) => formatUnits(wei, 2)

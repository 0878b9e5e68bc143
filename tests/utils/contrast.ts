/** WCAG 2 relative luminance and contrast ratio of two opaque colours given as #rgb or #rrggbb. */
export function parseHex(hex: string): [number, number, number] {
  const h = hex.trim().replace(/^#/, '')
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`Not a hex colour: ${hex}`)
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
}

export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((v) => {
    const s = v / 255
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** The custom properties of a stylesheet's `:root` block whose values are plain hex colours. */
export function rootColors(css: string): Record<string, string> {
  const root = /:root\s*{([^}]*)}/.exec(css)?.[1] ?? ''
  const colors: Record<string, string> = {}
  for (const [, name, value] of root.matchAll(/--([\w-]+)\s*:\s*(#[0-9a-f]{3,6})\b/gi)) colors[name] = value
  return colors
}

import crypto from 'node:crypto'
import sharp from 'sharp'

/** A unique noise image (≥ 500 px wide): distinct byte hash and perceptual hash per call. */
export async function noiseImage(width = 640, height = 900): Promise<Buffer> {
  const pixels = crypto.randomBytes(width * height)
  return sharp(pixels, { raw: { width, height, channels: 1 } }).png().toBuffer()
}

function escape(s: string) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/**
 * A clean e-mail-style transport receipt rendered from SVG (DejaVu Sans), dated as asked, so tests
 * can exercise the real OCR pipeline with a date inside the age window.
 */
export async function receiptImage(input: { vendor: string; lines: [string, string][]; total: string; date: string; width?: number }) {
  const width = input.width ?? 900
  const rows: string[] = [
    `<text x="60" y="110" font-size="56" font-weight="bold">${escape(input.vendor)}</text>`,
    `<text x="60" y="180" font-size="30">Thanks for riding with ${escape(input.vendor)}</text>`,
    `<text x="60" y="240" font-size="30">${escape(input.date)}</text>`,
  ]
  let y = 330
  for (const [label, amount] of input.lines) {
    rows.push(`<text x="60" y="${y}" font-size="32">${escape(label)}</text>`)
    rows.push(`<text x="${width - 60}" y="${y}" font-size="32" text-anchor="end">${escape(amount)}</text>`)
    y += 60
  }
  y += 20
  rows.push(`<line x1="60" y1="${y - 40}" x2="${width - 60}" y2="${y - 40}" stroke="#000" stroke-width="2"/>`)
  rows.push(`<text x="60" y="${y}" font-size="36" font-weight="bold">Total</text>`)
  rows.push(`<text x="${width - 60}" y="${y}" font-size="36" font-weight="bold" text-anchor="end">${escape(input.total)}</text>`)
  y += 80
  rows.push(`<text x="60" y="${y}" font-size="28">Paid with Visa •••• 4242</text>`)
  const height = y + 100
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g font-family="DejaVu Sans" fill="#111">${rows.join('')}</g></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

export function writtenDate(day: string) {
  const d = new Date(`${day}T12:00:00Z`)
  return d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

export function todayUtc() {
  return new Date().toISOString().slice(0, 10)
}

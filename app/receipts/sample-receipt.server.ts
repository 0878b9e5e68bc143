import sharp from 'sharp'
import { utcDay } from '~/utils/calendar'

/**
 * Issue 11: a sample transport receipt for trying the scan flow outside production. It is an
 * ordinary picture: the real analysis reads it and the real rules decide its reward. Each one
 * prints today's date (so it is inside the age window), a random total and a random trip number
 * (so it is nobody else's receipt).
 */

type Template = { vendor: string; intro: string; reference: string; lines: (random: () => number) => [string, number][] }

const cents = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1))

const TEMPLATES: Template[] = [
  {
    vendor: 'Uber',
    intro: 'Thanks for riding with Uber',
    reference: 'Trip ID',
    lines: (r) => [['Trip fare', cents(r, 900, 3800)], ['Booking fee', cents(r, 150, 350)], ['Tip', 100 * cents(r, 1, 5)]],
  },
  {
    vendor: 'Lyft',
    intro: 'Thanks for riding with Lyft',
    reference: 'Ride ID',
    lines: (r) => [['Ride', cents(r, 800, 3200)], ['Service fee', cents(r, 120, 300)]],
  },
  {
    vendor: 'Waymo',
    intro: 'Thanks for riding with Waymo',
    reference: 'Trip ID',
    lines: (r) => [['Trip fare', cents(r, 1000, 3500)], ['Service fee', cents(r, 150, 300)]],
  },
  {
    vendor: 'Lime',
    intro: 'Your Lime ride receipt',
    reference: 'Ride ID',
    lines: (r) => {
      const minutes = cents(r, 6, 35)
      return [['Unlock', 100], [`Riding (${minutes} min)`, minutes * 39]]
    },
  },
]

export type SampleReceipt = {
  vendor: string
  /** YYYY-MM-DD, UTC. */
  date: string
  totalCents: number
  reference: string
  lines: [string, number][]
  filename: string
}

/** What the receipt says; `random` returns [0, 1) like Math.random (a seeded one in tests). */
export function sampleReceipt(now: Date, random: () => number = Math.random): SampleReceipt {
  const template = TEMPLATES[Math.floor(random() * TEMPLATES.length)]
  const lines = template.lines(random)
  const totalCents = lines.reduce((sum, [, amount]) => sum + amount, 0)
  const digits = Array.from({ length: 12 }, () => Math.floor(random() * 10)).join('')
  const reference = `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`
  const date = utcDay(now)
  return {
    vendor: template.vendor,
    date,
    totalCents,
    reference: `${template.reference}: ${reference}`,
    lines,
    filename: `sample-receipt-${template.vendor.toLowerCase()}-${date}-${digits.slice(0, 4)}.png`,
  }
}

/** The receipt as a PNG, laid out like an e-mailed receipt (DejaVu Sans, which the OCR reads well). */
export async function renderSampleReceipt(receipt: SampleReceipt): Promise<Buffer> {
  const width = 900
  const money = (c: number) => `$${(c / 100).toFixed(2)}`
  const text = (x: number, y: number, size: number, value: string, extra = '') =>
    `<text x="${x}" y="${y}" font-size="${size}"${extra}>${escapeXml(value)}</text>`
  const template = TEMPLATES.find((t) => t.vendor === receipt.vendor)
  const rows = [
    text(60, 110, 56, receipt.vendor, ' font-weight="bold"'),
    text(60, 180, 30, template?.intro ?? receipt.vendor),
    text(60, 240, 30, writtenDate(receipt.date)),
    text(60, 290, 26, receipt.reference),
  ]
  let y = 380
  for (const [label, amount] of receipt.lines) {
    rows.push(text(60, y, 32, label), text(width - 60, y, 32, money(amount), ' text-anchor="end"'))
    y += 60
  }
  y += 20
  rows.push(`<line x1="60" y1="${y - 40}" x2="${width - 60}" y2="${y - 40}" stroke="#000" stroke-width="2"/>`)
  rows.push(text(60, y, 36, 'Total', ' font-weight="bold"'), text(width - 60, y, 36, money(receipt.totalCents), ' font-weight="bold" text-anchor="end"'))
  y += 80
  rows.push(text(60, y, 28, 'Paid with Visa •••• 4242'))
  y += 70
  rows.push(text(60, y, 22, 'Sample receipt for trying ReCircle', ' fill="#666"'))
  const height = y + 60
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g font-family="DejaVu Sans" fill="#111">${rows.join('')}</g></svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

function writtenDate(day: string) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
}

function escapeXml(s: string) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

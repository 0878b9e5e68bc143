/**
 * Synthetic receipt photos for checking that OCR changes generalise beyond the dev corpus:
 *   tsx scripts/eval/make-hard-receipts.ts OUT_DIR [--count 40] [--seed 7] [--mild 0.25] [--unseen]
 * Renders receipts of vendors, layouts, label wordings and date formats chosen at random (SVG text
 * in the DejaVu families), then photographs them badly: paper on a table, rotated, downscaled to
 * about half, blurred 1.2-2.2 px, Gaussian noise and JPEG quality 30-48 (a `--mild` fraction gets
 * gentler settings). Writes OUT_DIR/truth.json in the dev corpus's format, so
 * `tsx scripts/eval/receipts.ts OUT_DIR` and `tsx scripts/bench/ocr.ts OUT_DIR` can score it.
 *
 * `--unseen` (issue 13) draws only from merchants, fonts and layouts that neither the dev corpus nor
 * the default sets use, and that no extraction rule was written against: other services, the
 * Liberation font families, and two more layouts (an app's e-receipt with the total on top, a narrow
 * thermal ticket). Its figures are reported separately.
 *
 * `--harder` (issue 23, with `--unseen`) adds what a hurried phone photo adds: two more fonts (DejaVu
 * Sans Light, DejaVu Serif Condensed), a perspective tilt (a shear of up to 10 %) and a hand's or
 * phone's shadow across part of the page (light down to 45 %, soft edged).
 */
import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { findVendorByName } from '~/analysis/vendors'
import { mulberry32 } from '../bench/random'

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}


type Kind = 'ride' | 'transit' | 'micro' | 'ev' | 'fuel' | 'food' | 'grocery' | 'thrift'
const MERCHANTS: Array<{ name: string; header: string; kind: Kind; items: string[] }> = [
  { name: 'Via', header: 'Via', kind: 'ride', items: ['Shared ride', 'Service fee', 'Tip'] },
  { name: 'Curb', header: 'Curb', kind: 'ride', items: ['Taxi fare', 'Booking fee', 'Tip'] },
  { name: 'Revel', header: 'Revel', kind: 'ride', items: ['Ride fare', 'Airport fee'] },
  { name: 'Alto', header: 'Alto', kind: 'ride', items: ['Base fare', 'Distance', 'Time'] },
  { name: 'Amtrak', header: 'AMTRAK', kind: 'transit', items: ['Coach fare', 'Reservation'] },
  { name: 'MBTA', header: 'MBTA', kind: 'transit', items: ['CharlieCard value', 'Monthly LinkPass'] },
  { name: 'SEPTA', header: 'SEPTA', kind: 'transit', items: ['SEPTA Key fare', 'Transfer'] },
  { name: 'Metra', header: 'Metra', kind: 'transit', items: ['10-Ride ticket', 'Zone upgrade'] },
  { name: 'Greyhound', header: 'Greyhound', kind: 'transit', items: ['Bus ticket', 'Seat selection'] },
  { name: 'FlixBus', header: 'FlixBus', kind: 'transit', items: ['Ticket', 'Luggage'] },
  { name: 'Caltrain', header: 'Caltrain', kind: 'transit', items: ['Zone 1-3 fare', 'Parking'] },
  { name: 'NJ Transit', header: 'NJ TRANSIT', kind: 'transit', items: ['Rail ticket', 'Bus ticket'] },
  { name: 'Bird', header: 'Bird', kind: 'micro', items: ['Unlock fee', 'Riding 14 min'] },
  { name: 'Spin', header: 'Spin', kind: 'micro', items: ['Unlock', 'Ride time 9 min'] },
  { name: 'Divvy', header: 'Divvy', kind: 'micro', items: ['Ebike ride', 'Unlock fee'] },
  { name: 'Chevron', header: 'CHEVRON', kind: 'fuel', items: ['Unleaded 9.41 gal', 'Car wash'] },
  { name: "Dunkin'", header: "DUNKIN'", kind: 'food', items: ['Med Latte', 'Donut', 'Bagel'] },
  { name: "Trader Joe's", header: "TRADER JOE'S", kind: 'grocery', items: ['Bananas', 'Greek yogurt', 'Coffee beans'] },
  { name: 'Salvation Army', header: 'Salvation Army', kind: 'thrift', items: ['Used jacket', 'Books'] },
]
const FONTS = ['DejaVu Sans', 'DejaVu Sans Mono', 'DejaVu Sans Condensed', 'DejaVu Serif']

const UNSEEN_MERCHANTS: Array<{ name: string; header: string; kind: Kind; items: string[] }> = [
  { name: 'Gett', header: 'Gett', kind: 'ride', items: ['Ride', 'Waiting time', 'Gratuity'] },
  { name: 'Wingz', header: 'WINGZ', kind: 'ride', items: ['Flat rate', 'Tolls'] },
  { name: 'Yellow Cab', header: 'YELLOW CAB', kind: 'ride', items: ['Metered fare', 'Surcharge', 'Tip'] },
  { name: 'WMATA', header: 'WMATA', kind: 'transit', items: ['SmarTrip reload', 'Card fee'] },
  { name: 'MARTA', header: 'MARTA', kind: 'transit', items: ['Breeze card trip', 'Weekly pass'] },
  { name: 'LA Metro', header: 'LA METRO', kind: 'transit', items: ['TAP fare', 'Day pass'] },
  { name: 'Megabus', header: 'megabus', kind: 'transit', items: ['Coach seat', 'Booking fee'] },
  { name: 'Brightline', header: 'BRIGHTLINE', kind: 'transit', items: ['SMART fare', 'Bag fee'] },
  { name: 'Bay Wheels', header: 'Bay Wheels', kind: 'micro', items: ['Ebike minutes', 'Unlock fee'] },
  { name: 'Capital Bikeshare', header: 'Capital Bikeshare', kind: 'micro', items: ['Single trip', 'Ebike fee'] },
  { name: 'Bluebikes', header: 'Bluebikes', kind: 'micro', items: ['Adventure pass', 'Overtime'] },
  { name: 'Veo', header: 'VEO', kind: 'micro', items: ['Scooter unlock', 'Ride 12 min'] },
  { name: 'Evie', header: 'Evie Carshare', kind: 'ev', items: ['Electric vehicle trip', 'Per-mile rate'] },
  { name: 'EVgo', header: 'EVgo', kind: 'ev', items: ['Charging session 31.4 kWh', 'Session fee'] },
  { name: 'Exxon', header: 'EXXON', kind: 'fuel', items: ['Regular 11.2 gal', 'Snacks'] },
  { name: 'Kroger', header: 'KROGER', kind: 'grocery', items: ['Milk', 'Eggs', 'Bread'] },
  { name: 'Chipotle', header: 'CHIPOTLE', kind: 'food', items: ['Burrito bowl', 'Chips', 'Drink'] },
  { name: 'Savers', header: 'SAVERS', kind: 'thrift', items: ['Used coat', 'Glassware'] },
]
const UNSEEN_FONTS = ['Liberation Sans', 'Liberation Serif', 'Liberation Mono', 'Liberation Sans Narrow']
const HARDER_FONTS = [...UNSEEN_FONTS, 'DejaVu Sans Light', 'DejaVu Serif Condensed']
const HARDER = process.argv.includes('--harder')
type Layout = 'classic' | 'app' | 'ticket'
const TOTAL_LABELS = ['Total', 'TOTAL', 'Total charged', 'Amount charged', 'Total paid', 'Amount paid', 'Grand total']
const PAYMENTS = ['Visa ending in 4417', 'Mastercard **** 9021', 'Apple Pay', 'Google Pay ending in 3350', 'Cash']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const money = (c: number) => `$${(c / 100).toFixed(2)}`

function receipt(r: () => number, unseen: boolean) {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]
  const m = pick(unseen ? UNSEEN_MERCHANTS : MERCHANTS)
  const vendor = findVendorByName(m.name)
  if (!vendor) throw new Error(`${m.name} is not in vendors.ts`)
  const category = vendor.kind === 'transport' ? (vendor.category ?? null) : null
  const expect = vendor.kind === 'transport' ? 'auto' : vendor.kind === 'thrift' ? 'review' : 'reject'
  const font = pick(unseen ? (HARDER ? HARDER_FONTS : UNSEEN_FONTS) : FONTS)
  const layout: Layout = unseen ? pick(['classic', 'app', 'ticket'] as const) : 'classic'
  // A date in the last ~18 months, never in the future.
  const day = new Date(Date.now() - Math.floor(r() * 540 + 1) * 86_400_000)
  const y = day.getUTCFullYear()
  const mo = day.getUTCMonth() + 1
  const d = day.getUTCDate()
  const iso = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`
  const dateText = pick([
    `${MONTHS[mo - 1]} ${d}, ${y}`,
    `${String(mo).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}`,
    `${iso}`,
    `${d} ${MONTHS[mo - 1]} ${y}`,
  ])
  const items = m.items.slice(0, 1 + Math.floor(r() * m.items.length)).map((label) => [label, Math.round(100 + r() * 4000)] as const)
  const sum = items.reduce((s, [, c]) => s + c, 0)
  const withTax = r() < 0.35
  const tax = withTax ? Math.round(sum * 0.0725) : 0
  const total = sum + tax
  const width = 820 + Math.floor(r() * 200)
  const size = 30 + Math.floor(r() * 6)
  const rows: string[] = []
  let yy = 90
  const text = (x: number, s: string, o: { size?: number; bold?: boolean; end?: boolean } = {}) =>
    rows.push(
      `<text x="${x}" y="${yy}" font-size="${o.size ?? size}"${o.bold ? ' font-weight="bold"' : ''}${o.end ? ' text-anchor="end"' : ''}>${escape(s)}</text>`,
    )
  if (layout === 'app') return appReceipt({ m, font, dateText, items, sum, tax, withTax, total, size, r, pick, category, expect, iso })
  if (layout === 'ticket') return ticketReceipt({ m, font, dateText, items, sum, tax, withTax, total, r, pick, category, expect, iso })
  text(width / 2 - m.header.length * 17, m.header, { size: 60, bold: true })
  yy += 70
  text(60, pick(['Receipt', 'Trip receipt', 'Thank you!', `Store #${100 + Math.floor(r() * 900)}`]))
  yy += size * 1.7
  text(60, `${pick(['Date', 'Date:', ''])} ${dateText}`.trim())
  yy += size * 2.2
  for (const [label, c] of items) {
    text(60, label)
    text(width - 60, money(c), { end: true })
    yy += size * 1.8
  }
  if (withTax) {
    text(60, 'Subtotal')
    text(width - 60, money(sum), { end: true })
    yy += size * 1.8
    text(60, 'Sales tax')
    text(width - 60, money(tax), { end: true })
    yy += size * 1.8
  }
  yy += 10
  const label = pick(TOTAL_LABELS)
  text(60, label, { bold: true })
  text(width - 60, money(total), { end: true, bold: true })
  yy += size * 2
  text(60, pick(PAYMENTS))
  const height = Math.round(yy + 70)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f6f4ee"/><g font-family="${font}" fill="#1a1a1a">${rows.join('')}</g></svg>`
  return { svg, width, height, font, layout, truth: { vendor: m.name, category, totalAmount: total / 100, purchaseDate: iso, expect } }
}

type Parts = {
  m: (typeof MERCHANTS)[number]
  font: string
  dateText: string
  items: ReadonlyArray<readonly [string, number]>
  sum: number
  tax: number
  withTax: boolean
  total: number
  r: () => number
  pick: <T>(xs: T[]) => T
  category: string | null
  expect: string
  iso: string
}

/** Drawing helper: rows of SVG text on a page `width` wide. */
function page(width: number, size: number) {
  const rows: string[] = []
  let y = 90
  return {
    text: (x: number, s: string, o: { size?: number; bold?: boolean; end?: boolean; middle?: boolean } = {}) =>
      rows.push(
        `<text x="${x}" y="${y}" font-size="${o.size ?? size}"${o.bold ? ' font-weight="bold"' : ''}${o.end ? ' text-anchor="end"' : o.middle ? ' text-anchor="middle"' : ''}>${escape(s)}</text>`,
      ),
    down: (dy: number) => void (y += dy),
    svg: (font: string) => {
      const height = Math.round(y + 70)
      return { height, svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f6f4ee"/><g font-family="${font}" fill="#1a1a1a">${rows.join('')}</g></svg>` }
    },
  }
}

/** An app's e-receipt: the amount paid in large type near the top, the date in a sentence, then the breakdown. */
function appReceipt(p: Parts & { size: number }) {
  const width = 760 + Math.floor(p.r() * 160)
  const d = page(width, p.size)
  d.text(width / 2, p.m.header, { size: 52, bold: true, middle: true })
  d.down(90)
  d.text(width / 2, p.pick(['Thanks for riding', 'Here is your receipt', 'Your trip']), { middle: true })
  d.down(p.size * 2.4)
  d.text(60, p.pick(['Total', 'You paid', 'Amount charged']), { bold: true })
  d.text(width - 60, money(p.total), { size: 44, bold: true, end: true })
  d.down(p.size * 2.2)
  d.text(60, `${p.pick(['Trip on', 'Ride on', 'Purchased'])} ${p.dateText}`)
  d.down(p.size * 2.4)
  for (const [label, c] of p.items) {
    d.text(60, label)
    d.text(width - 60, money(c), { end: true })
    d.down(p.size * 1.7)
  }
  if (p.withTax) {
    d.text(60, 'Taxes and fees')
    d.text(width - 60, money(p.tax), { end: true })
    d.down(p.size * 1.7)
  }
  d.down(10)
  d.text(60, p.pick(PAYMENTS))
  const { svg, height } = d.svg(p.font)
  return { svg, width, height, font: p.font, layout: 'app' as Layout, truth: truthOf(p) }
}

/** A narrow thermal ticket in capitals, with dashed rules and the date beside a time. */
function ticketReceipt(p: Parts) {
  const width = 720 + Math.floor(p.r() * 80)
  const size = 30 + Math.floor(p.r() * 4)
  const d = page(width, size)
  const rule = () => {
    d.text(40, '-'.repeat(Math.floor((width - 80) / (size * 0.6))))
    d.down(size * 1.5)
  }
  d.text(width / 2, p.m.header.toUpperCase(), { size: 44, bold: true, middle: true })
  d.down(60)
  rule()
  d.text(40, `DATE ${p.dateText.toUpperCase()}`)
  d.text(width - 40, `${10 + Math.floor(p.r() * 12)}:${String(Math.floor(p.r() * 60)).padStart(2, '0')}`, { end: true })
  d.down(size * 1.6)
  rule()
  for (const [label, c] of p.items) {
    d.text(40, label.toUpperCase())
    d.text(width - 40, money(c), { end: true })
    d.down(size * 1.5)
  }
  if (p.withTax) {
    d.text(40, 'TAX')
    d.text(width - 40, money(p.tax), { end: true })
    d.down(size * 1.5)
  }
  rule()
  d.text(40, 'TOTAL', { bold: true })
  d.text(width - 40, money(p.total), { bold: true, end: true })
  d.down(size * 1.8)
  d.text(40, p.pick(PAYMENTS).toUpperCase())
  d.down(size * 1.6)
  d.text(width / 2, 'THANK YOU', { middle: true })
  const { svg, height } = d.svg(p.font)
  return { svg, width, height, font: p.font, layout: 'ticket' as Layout, truth: truthOf(p) }
}

function truthOf(p: Parts) {
  return { vendor: p.m.name, category: p.category, totalAmount: p.total / 100, purchaseDate: p.iso, expect: p.expect }
}

async function photograph(svg: string, r: () => number, mild: boolean) {
  const between = (a: number, b: number) => a + r() * (b - a)
  const angle = (r() < 0.5 ? -1 : 1) * (mild ? between(0.5, 3) : between(4, 9))
  const scale = mild ? between(0.75, 1) : between(0.45, 0.65)
  const blur = mild ? between(0.3, 0.8) : between(1.2, 2.2)
  const noise = mild ? between(5, 15) : between(25, 60)
  const jpeg = Math.round(mild ? between(60, 85) : between(30, 48))
  const paper = await sharp(Buffer.from(svg)).png().toBuffer()
  const meta = await sharp(paper).metadata()
  const table = { r: 90 + Math.floor(r() * 60), g: 80 + Math.floor(r() * 50), b: 60 + Math.floor(r() * 40), alpha: 1 }
  const pad = 80
  const shear = HARDER ? [between(-0.1, 0.1), between(-0.06, 0.06)] : [0, 0]
  const rotated = await sharp(
    await sharp(paper)
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: table })
      .rotate(angle, { background: table })
      .png()
      .toBuffer(),
  )
    .affine([1, shear[0], shear[1], 1], { background: table })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { data, info } = rotated
  // Dim light (paper ~200, ink ~80 like an indoor phone photo), a gradient across the page, then
  // Gaussian-ish noise (sum of uniforms) at full size so downscaling and JPEG turn it into blotches.
  const dim = mild ? between(0.85, 1) : between(0.7, 0.85)
  // A shadow: the half-plane past a random line through the page, 45-70 % light, a 40 px soft edge.
  const shadowAngle = between(0, 2 * Math.PI)
  const shadowAt = between(0.3, 0.7) * Math.hypot(info.width, info.height) * 0.5
  const shadowDepth = HARDER ? between(0.3, 0.55) : 0
  for (let y = 0; y < info.height; y++) {
    const rowLight = dim * (1 - 0.12 * (y / info.height))
    for (let x = 0; x < info.width; x++) {
      const along = (x - info.width / 2) * Math.cos(shadowAngle) + (y - info.height / 2) * Math.sin(shadowAngle) - shadowAt
      const light = rowLight * (1 - shadowDepth * Math.min(1, Math.max(0, along / 40 + 0.5)))
      const n = (r() + r() + r() - 1.5) * noise * 1.6
      for (let c = 0; c < info.channels; c++) {
        const i = (y * info.width + x) * info.channels + c
        data[i] = Math.max(0, Math.min(255, Math.round(40 * (1 - dim) + data[i] * light + n)))
      }
    }
  }
  // A photo narrower than the upload minimum (500 px, spec §5) is refused before it is read: such a
  // receipt would test the upload check, not reading. Narrow papers keep at least 520 px.
  const finalScale = Math.max(scale, 520 / info.width)
  const image = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .resize({ width: Math.round(info.width * finalScale) })
    .blur(blur)
    .jpeg({ quality: jpeg })
    .toBuffer()
  const width = Math.round(info.width * finalScale)
  const harder = HARDER ? { shear: shear.map(round), shadow: round(shadowDepth) } : {}
  return { image, render: { photo: true, hard: !mild, width, angle: round(angle), ...harder, noise: round(noise), blur: round(blur), scale: round(finalScale), jpeg } }
}

const round = (v: number) => Math.round(v * 100) / 100

async function main() {
  const out = process.argv[2]
  if (!out || out.startsWith('--')) throw new Error('usage: tsx scripts/eval/make-hard-receipts.ts OUT_DIR [--count N] [--seed S] [--mild F] [--unseen]')
  const count = arg('--count', 40)
  const unseen = process.argv.includes('--unseen')
  const r = mulberry32(arg('--seed', 7))
  const mildShare = arg('--mild', 0.25)
  fs.mkdirSync(out, { recursive: true })
  const truth: unknown[] = []
  for (let i = 1; i <= count; i++) {
    const rec = receipt(r, unseen)
    const mild = r() < mildShare
    const { image, render } = await photograph(rec.svg, r, mild)
    const slug = rec.truth.vendor.toLowerCase().replace(/[^a-z]+/g, '')
    const file = `gen-${String(i).padStart(3, '0')}-${slug}.jpg`
    fs.writeFileSync(path.join(out, file), image)
    truth.push({ file, ...rec.truth, render: { font: rec.font, layout: rec.layout, ...render } })
  }
  fs.writeFileSync(path.join(out, 'truth.json'), JSON.stringify(truth, null, 1))
  console.log(`${count} receipts in ${out}`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})

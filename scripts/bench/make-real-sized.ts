/**
 * Real-sized variants of a receipt folder, for measuring what real uploads cost (issue 37):
 *   tsx scripts/bench/make-real-sized.ts OUT [--src DIR] [--seed 37] [--megapixels 12]
 * (default --src ../shared/receipts-dev from the repo root). Each file of DIR/truth.json becomes one
 * file of OUT with the same truth, so `npm run bench:ocr -- OUT` and `npm run eval:receipts -- OUT`
 * compare with the original on the same answers:
 * - a photo (render.photo) becomes a phone photo of about 12 MP: upscaled (Lanczos), a little
 *   vignetting, a camera's fine luminance and chroma noise, JPEG quality 82-92 (kept under the 5 MB
 *   upload limit), and a third of them stored sideways with an EXIF orientation tag, as phones do;
 * - a screenshot becomes a phone screenshot at 3x DPR: 1170-1290 px wide and 5000-8000 px tall, with
 *   a status bar, a mail or app header, sometimes a map-like banner, the receipt scaled to the
 *   screen's width (text 30-45 px high), then blank space, marketing blocks and a legal footer that
 *   names the brand. In a third of them the receipt's first text row (its brand) is painted over
 *   with a logo-like shape, as e-mails draw their logo as an image: the brand is then only in the
 *   footer.
 * The marketing and footer text hold no amount and no date: the set measures reading, not rules.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { mulberry32, type Rng } from './random'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

type TruthEntry = { file: string; vendor: string | null; render?: { photo?: boolean; hard?: boolean; [k: string]: unknown }; [k: string]: unknown }

const MAX_BYTES = 4.9 * 1024 * 1024
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A phone photo of about `megapixels`: upscaled, vignetted, camera noise, JPEG; sometimes stored sideways with an EXIF tag. */
export async function phonePhoto(src: Buffer, r: Rng, megapixels: number): Promise<{ image: Buffer; info: Record<string, unknown> }> {
  const meta = await sharp(src).rotate().metadata()
  const w0 = meta.autoOrient?.width ?? meta.width!
  const h0 = meta.autoOrient?.height ?? meta.height!
  const k = Math.sqrt((megapixels * 1e6) / (w0 * h0))
  const width = Math.round(w0 * k)
  const height = Math.round(h0 * k)
  const { data, info } = await sharp(src).rotate().removeAlpha().resize({ width, height, kernel: 'lanczos3' }).raw().toBuffer({ resolveWithObject: true })
  const sigma = 2 + r() * 3
  const chroma = 0.4 + r() * 0.4
  const vignette = 0.08 + r() * 0.1
  const cx = info.width / 2
  const cy = info.height / 2
  const far = Math.hypot(cx, cy)
  // Noise from a table of Gaussian samples, walked with a random stride: 36 M samples drawn one by one take seconds.
  const table = new Float32Array(1 << 16)
  for (let i = 0; i < table.length; i++) table[i] = (r() + r() + r() + r() - 2) * 1.73
  let t = Math.floor(r() * table.length)
  const stride = 7919
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const light = 1 - vignette * ((x - cx) ** 2 + (y - cy) ** 2) / (far * far)
      const lum = table[(t = (t + stride) & 0xffff)] * sigma
      const i = (y * info.width + x) * 3
      for (let c = 0; c < 3; c++) {
        const n = lum + table[(t = (t + 31) & 0xffff)] * sigma * chroma
        data[i + c] = Math.max(0, Math.min(255, Math.round(data[i + c] * light + n)))
      }
    }
  }
  const sideways = r() < 1 / 3
  let quality = 82 + Math.floor(r() * 11)
  for (;;) {
    let pipeline = sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    // Stored as the sensor saw it (landscape) with orientation 6: turn the pixels back a quarter and tag them.
    if (sideways) pipeline = sharp(await pipeline.rotate(-90).raw().toBuffer(), { raw: { width: info.height, height: info.width, channels: 3 } }).withMetadata({ orientation: 6 })
    const image = await pipeline.jpeg({ quality }).toBuffer()
    if (image.length <= MAX_BYTES || quality <= 60) {
      return { image, info: { width: info.width, height: info.height, megapixels: Math.round((info.width * info.height) / 1e5) / 10, noise: round(sigma), vignette: round(vignette), jpeg: quality, exifOrientation: sideways ? 6 : 1, bytes: image.length } }
    }
    quality -= 6
  }
}

const MARKETING = [
  ['Ride with us again', 'Open the app to book your next trip. Save your favourite places to get there faster.'],
  ['Invite your friends', 'Share your invite code with friends and family. They will thank you later.'],
  ['Rate your trip', 'Tell us how it went. Your feedback helps drivers and riders alike.'],
  ['Download the app', 'Get live arrival times, saved places and receipts in one place. Available on iOS and Android.'],
  ['Travel greener', 'Choose shared rides, bikes and transit where you can. Every trip counts.'],
  ['Need help?', 'Visit the help centre in the app for questions about this trip, lost items or account settings.'],
  ['Safety first', 'Check the plate and the name before you get in, and share your trip status with a friend.'],
]

function wrap(text: string, perLine: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if ((line + ' ' + word).trim().length > perLine) {
      lines.push(line)
      line = word
    } else line = `${line} ${word}`.trim()
  }
  if (line) lines.push(line)
  return lines
}

/** SVG of `width` x `height` with text rows: [x, y, size, text, options]. */
function textSvg(width: number, height: number, rows: Array<{ x: number; y: number; size: number; text: string; bold?: boolean; fill?: string; anchor?: string }>, extra = '', bg = '#ffffff') {
  const texts = rows
    .map((t) => `<text x="${t.x}" y="${t.y}" font-size="${t.size}"${t.bold ? ' font-weight="bold"' : ''} fill="${t.fill ?? '#222'}"${t.anchor ? ` text-anchor="${t.anchor}"` : ''}>${escape(t.text)}</text>`)
    .join('')
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${bg}"/>${extra}<g font-family="DejaVu Sans">${texts}</g></svg>`)
}

/** Top and bottom of the first text row of a light screenshot (the brand heading), in its pixels. */
async function firstTextRow(src: Buffer): Promise<{ top: number; bottom: number } | null> {
  const { data, info } = await sharp(src).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true })
  const dark = (y: number) => {
    let n = 0
    for (let x = 0; x < info.width; x++) if (data[y * info.width + x] < 128) n++
    return n
  }
  let top = -1
  for (let y = 0; y < info.height; y++) {
    const n = dark(y)
    if (top < 0 && n > 0) top = y
    else if (top >= 0 && n === 0) return { top, bottom: y }
  }
  return null
}

/** A phone screenshot at 3x DPR: status bar, header, maybe a banner, the receipt, blank space, marketing, footer. */
export async function tallScreenshot(src: Buffer, vendor: string | null, r: Rng): Promise<{ image: Buffer; info: Record<string, unknown> }> {
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]
  const width = pick([1170, 1179, 1284, 1290])
  const targetHeight = 5000 + Math.floor(r() * 3000)
  const brand = vendor ?? 'Receipts'
  const logoOnly = r() < 1 / 3
  const kind = pick(['mail', 'app'] as const)
  const margin = 40 + Math.floor(r() * 40)
  // The receipt, brand heading painted over by a logo shape when the logo is an image.
  let receipt = await sharp(src).flatten({ background: '#ffffff' }).png().toBuffer()
  if (logoOnly) {
    const row = await firstTextRow(receipt)
    const meta = await sharp(receipt).metadata()
    if (row) {
      const h = row.bottom - row.top + 16
      const logo = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${meta.width}" height="${h}"><rect width="100%" height="100%" fill="#ffffff"/><g transform="translate(${meta.width! / 2 - h}, 0)"><rect x="0" y="2" width="${h * 2}" height="${h - 4}" rx="${h / 3}" fill="#111"/><circle cx="${h * 0.6}" cy="${h / 2}" r="${h / 4}" fill="#fff"/><rect x="${h}" y="${h * 0.35}" width="${h * 0.7}" height="${h * 0.3}" fill="#fff"/></g></svg>`,
      )
      receipt = await sharp(receipt).composite([{ input: logo, top: Math.max(0, row.top - 8), left: 0 }]).png().toBuffer()
    }
  }
  const inner = width - 2 * margin
  receipt = await sharp(receipt).resize({ width: inner, kernel: 'lanczos3' }).png().toBuffer()
  const receiptHeight = (await sharp(receipt).metadata()).height!

  const parts: Array<{ input: Buffer; top: number; left: number }> = []
  let y = 0
  // Status bar: the time and a battery.
  parts.push({ input: textSvg(width, 140, [{ x: 90, y: 95, size: 48, text: '9:41', bold: true }], `<rect x="${width - 190}" y="58" width="100" height="46" rx="12" fill="none" stroke="#222" stroke-width="5"/><rect x="${width - 182}" y="66" width="70" height="30" rx="6" fill="#222"/>`), top: 0, left: 0 })
  y += 140
  if (kind === 'mail') {
    const rows = [
      { x: 60, y: 80, size: 44, text: '< Inbox', fill: '#0a64d8' },
      { x: 60, y: 210, size: 54, text: 'Your receipt', bold: true },
      { x: 60, y: 300, size: 40, text: logoOnly ? 'Receipts' : brand, bold: true },
      { x: 60, y: 360, size: 36, text: 'to me', fill: '#777' },
    ]
    parts.push({ input: textSvg(width, 420, rows), top: y, left: 0 })
    y += 420
  } else {
    parts.push({ input: textSvg(width, 180, [{ x: width / 2, y: 110, size: 50, text: 'Receipt', bold: true, anchor: 'middle' }]), top: y, left: 0 })
    y += 180
  }
  if (r() < 0.5) {
    // A map-like banner: streets on a tinted block.
    const h = 500 + Math.floor(r() * 300)
    const streets = Array.from({ length: 14 }, () => {
      const x1 = Math.floor(r() * width)
      const x2 = Math.floor(r() * width)
      return `<line x1="${x1}" y1="0" x2="${x2}" y2="${h}" stroke="#fff" stroke-width="${6 + Math.floor(r() * 14)}"/>`
    }).join('')
    parts.push({ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${h}"><rect width="100%" height="100%" fill="#dfe8d8"/>${streets}<circle cx="${width * 0.3}" cy="${h * 0.6}" r="22" fill="#111"/><rect x="${width * 0.7}" y="${h * 0.25}" width="40" height="40" fill="#111"/></svg>`), top: y, left: 0 })
    y += h + 40
  }
  parts.push({ input: receipt, top: y, left: margin })
  y += receiptHeight
  // Footer first (it sits at the bottom), then blank space and marketing blocks in what is left.
  const footerRows = [
    { x: width / 2, y: 60, size: 32, text: `${brand} · Help · Privacy · Terms`, fill: '#666', anchor: 'middle' },
    { x: width / 2, y: 120, size: 28, text: `You get this e-mail because you ride with ${brand}.`, fill: '#888', anchor: 'middle' },
    { x: width / 2, y: 170, size: 28, text: 'Unsubscribe from marketing e-mails', fill: '#888', anchor: 'middle' },
  ]
  const footerHeight = 220
  const height = Math.max(targetHeight, y + footerHeight + 400)
  let space = height - footerHeight - y
  y += 200 + Math.floor(r() * 300)
  space -= y
  const blocks = [...MARKETING].sort(() => r() - 0.5)
  for (const [title, body] of blocks) {
    const lines = wrap(body, Math.floor(inner / 22))
    const h = 110 + lines.length * 58 + 160
    if (y + h > height - footerHeight - 120) break
    const rows = [{ x: margin, y: 70, size: 48, text: title, bold: true }, ...lines.map((text, i) => ({ x: margin, y: 150 + i * 58, size: 38, text, fill: '#444' }))]
    const button = `<rect x="${margin}" y="${150 + lines.length * 58}" width="420" height="96" rx="48" fill="#111"/>`
    const buttonText = { x: margin + 210, y: 212 + lines.length * 58, size: 38, text: 'Open the app', fill: '#fff', anchor: 'middle' }
    parts.push({ input: textSvg(width, h, [...rows, buttonText], button, '#f3f3f3'), top: y, left: 0 })
    y += h + 80 + Math.floor(r() * 300)
  }
  parts.push({ input: textSvg(width, footerHeight, footerRows), top: height - footerHeight, left: 0 })
  const image = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite(parts).png({ compressionLevel: 9 }).toBuffer()
  return { image, info: { width, height, kind, logoOnly, receiptWidth: inner, bytes: image.length } }
}

const round = (v: number) => Math.round(v * 100) / 100

async function main() {
  const out = process.argv[2]
  if (!out || out.startsWith('--')) throw new Error('usage: tsx scripts/bench/make-real-sized.ts OUT [--src DIR] [--seed 37] [--megapixels 12]')
  const src = path.resolve(arg('--src') ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const r = mulberry32(Number(arg('--seed') ?? 37))
  const megapixels = Number(arg('--megapixels') ?? 12)
  const truth: TruthEntry[] = JSON.parse(fs.readFileSync(path.join(src, 'truth.json'), 'utf8'))
  fs.mkdirSync(out, { recursive: true })
  const next: TruthEntry[] = []
  for (const entry of truth) {
    const buf = fs.readFileSync(path.join(src, entry.file))
    const base = entry.file.replace(/\.[^.]+$/, '')
    const photo = entry.render?.photo ?? /\.jpe?g$/i.test(entry.file)
    const made = photo ? await phonePhoto(buf, r, megapixels) : await tallScreenshot(buf, entry.vendor, r)
    const file = photo ? `${base}-12mp.jpg` : `${base}-tall.png`
    fs.writeFileSync(path.join(out, file), made.image)
    next.push({ ...entry, file, render: { ...entry.render, source: entry.file, realSized: made.info } })
    console.error(`${file} ${JSON.stringify(made.info)}`)
  }
  fs.writeFileSync(path.join(out, 'truth.json'), JSON.stringify(next, null, 1))
  console.log(`${next.length} real-sized receipts in ${out}`)
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e)
    process.exit(1)
  })
}

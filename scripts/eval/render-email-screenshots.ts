/**
 * Real e-mail receipt templates as the phone screenshots riders upload. Riders often send a
 * screenshot of a receipt e-mail (Uber, Lyft, a rail confirmation) instead of forwarding the mail,
 * so the photo reader must cope with the real layouts. This renders every .eml of a folder the way
 * a phone mail app shows it and adds the matching truth entries, for `npm run eval:receipts`.
 *
 *   npx tsx scripts/eval/render-email-screenshots.ts IN_DIR OUT_DIR [file.eml ...]
 *
 * Each .eml (or only the named ones) is parsed with postal-mime; its HTML part is shown (inline
 * `cid:` images from its own attachments included), else its text part in a <pre>. The page is
 * 390 CSS px wide at device scale factor 3 (a 1170 px wide PNG), the whole length of the mail,
 * scripts off and with no network: every request that is not a data: URL is refused, so remote
 * images and logos stay blank, as in a mail app that protects privacy. A mail wider than the phone
 * is shrunk to fit, as mail apps do. Writes OUT_DIR/<name>-screenshot.png and puts in
 * OUT_DIR/truth.json a copy of IN_DIR/truth.json's entry for the .eml (vendor, total, date, expect,
 * tripKey... kept) with kind "screenshot", the new file name and a note saying where it came from;
 * an entry already there for that screenshot is replaced, so running it again changes nothing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { chromium } from 'playwright-core'
import PostalMime, { type Email } from 'postal-mime'

type TruthEntry = { file: string; kind?: string; note?: string; [key: string]: unknown }

const WIDTH = 390
const SCALE = 3
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const [inDir, outDir, ...only] = process.argv.slice(2)
if (!inDir || !outDir) {
  console.error('usage: npx tsx scripts/eval/render-email-screenshots.ts IN_DIR OUT_DIR [file.eml ...]')
  process.exit(2)
}

function readTruth(dir: string): TruthEntry[] {
  const file = path.join(dir, 'truth.json')
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as TruthEntry[]) : []
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Inline parts referenced as cid:… become data: URLs, the only URLs the page may load. */
function inlineCids(html: string, email: Email): string {
  const byCid = new Map<string, string>()
  for (const a of email.attachments) {
    if (!a.contentId) continue
    const content = typeof a.content === 'string' ? Buffer.from(a.content) : Buffer.from(a.content as ArrayBuffer)
    byCid.set(a.contentId.replace(/^<|>$/g, ''), `data:${a.mimeType};base64,${content.toString('base64')}`)
  }
  if (byCid.size === 0) return html
  return html.replace(/cid:([^"'\s)>]+)/gi, (whole, id: string) => byCid.get(decodeURIComponent(id)) ?? whole)
}

function pageFor(email: Email): string {
  if (email.html) return inlineCids(email.html, email)
  const text = email.text ?? ''
  return (
    '<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:12px">' +
    '<pre style="white-space:pre-wrap;overflow-wrap:anywhere;font:14px/1.4 -apple-system,Helvetica,Arial,sans-serif">' +
    escapeHtml(text) +
    '</pre></body></html>'
  )
}

const emls = fs
  .readdirSync(inDir)
  .filter((f) => f.toLowerCase().endsWith('.eml'))
  .filter((f) => only.length === 0 || only.includes(f))
  .sort()
const inTruth = readTruth(inDir)
fs.mkdirSync(outDir, { recursive: true })
let outTruth = readTruth(outDir)

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
})

/** A page `width` CSS px wide whose screenshot is WIDTH * SCALE px wide, with scripts and the network off. */
async function openPage(html: string, width: number) {
  const context = await browser.newContext({
    viewport: { width, height: Math.round((844 * width) / WIDTH) },
    deviceScaleFactor: (WIDTH * SCALE) / width,
    javaScriptEnabled: false,
    offline: true,
  })
  await context.route('**/*', (route) =>
    route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient'),
  )
  const page = await context.newPage()
  await page.setContent(html, { waitUntil: 'load' })
  const { scrollWidth, scrollHeight } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
  }))
  return { context, page, width, scrollWidth, scrollHeight }
}

try {
  for (const eml of emls) {
    const email = await PostalMime.parse(fs.readFileSync(path.join(inDir, eml)))
    const name = `${path.basename(eml, path.extname(eml))}-screenshot.png`
    const html = pageFor(email)
    let shown = await openPage(html, WIDTH)
    if (shown.scrollWidth > WIDTH) {
      // Wider than the phone: laid out at its own width and shrunk to the phone's, as mail apps do.
      await shown.context.close()
      shown = await openPage(html, shown.scrollWidth)
    }
    // Cut at the phone's width: a pixel or two that still sticks out is not shown by a phone either.
    const clip = { x: 0, y: 0, width: shown.width, height: shown.scrollHeight }
    await shown.page.screenshot({ path: path.join(outDir, name), fullPage: true, clip, animations: 'disabled' })
    await shown.context.close()

    const source = inTruth.find((t) => t.file === eml)
    if (!source) {
      console.warn(`${eml}: no entry in ${path.join(inDir, 'truth.json')}; ${name} written without truth`)
      continue
    }
    const note = `rendered from ${eml} by render-email-screenshots`
    const entry: TruthEntry = { ...source, file: name, kind: 'screenshot', note: source.note ? `${note}; ${source.note}` : note }
    const at = outTruth.findIndex((t) => t.file === name)
    if (at >= 0) outTruth[at] = entry
    else outTruth = [...outTruth, entry]
    console.log(`${eml} -> ${name}`)
  }
} finally {
  await browser.close()
}
fs.writeFileSync(path.join(outDir, 'truth.json'), JSON.stringify(outTruth, null, 1))

import sharp from 'sharp'
import { afterAll, describe, expect, test } from 'vitest'
import { analyzeReceipt } from '~/analysis/photo-analysis.server'
import { createOcrPool } from '~/ocr/tesseract.server'

// Ride-share receipts are mostly screenshots of the app (issue 23), and apps draw them in dark mode
// or on grey cards. Before, a dark page passed for ink everywhere and a grey card for one 300 px
// line: the page was shrunk to a quarter and read as nothing.

const NOW = new Date('2026-11-24T12:00:00Z')
const LINES = ['Uber', 'Thanks for riding, Alex', 'November 20, 2026 at 8:14 PM', 'Trip fare  $14.20', 'Booking fee  $2.35', 'Total  $16.55', 'Visa ending in 4417']

/** A phone screenshot: a page, a rounded card, the receipt's lines in the app's text colour. */
function screenshot(page: string, card: string, text: string) {
  const rows = LINES.map((l, i) => `<text x="60" y="${220 + i * 70}" font-family="DejaVu Sans" font-size="34" fill="${text}">${l}</text>`)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="750" height="1000"><rect width="750" height="1000" fill="${page}"/><rect x="30" y="150" width="690" height="600" rx="20" fill="${card}"/>${rows.join('')}</svg>`
  return sharp(Buffer.from(svg)).png().toBuffer()
}

describe('receipt screenshots in the themes apps draw them in', () => {
  const pool = createOcrPool({ size: 1 })
  afterAll(() => pool.terminate())

  test.each([
    { theme: 'light', page: '#ffffff', card: '#ffffff', text: '#111111' },
    { theme: 'a light grey card', page: '#ffffff', card: '#eeeeee', text: '#111111' },
    { theme: 'a grey card', page: '#ffffff', card: '#d0d0d0', text: '#000000' },
    { theme: 'a darker grey card', page: '#ffffff', card: '#9a9a9a', text: '#000000' },
    { theme: 'dark mode', page: '#000000', card: '#1c1c1e', text: '#ffffff' },
    { theme: 'dark mode, grey card', page: '#1c1c1e', card: '#2c2c2e', text: '#f2f2f7' },
    // Light text on a dark card, the page around it light: only tesseract's own inverted reading of unsure lines reads it.
    { theme: 'a dark card on a light page', page: '#ffffff', card: '#1c1c1e', text: '#ffffff' },
  ])('$theme: every field read, approved automatically', async ({ page, card, text }) => {
    const a = await analyzeReceipt(await screenshot(page, card, text), { ocr: pool.recognize, secondReader: null, now: NOW })
    expect(a).toMatchObject({ storeName: 'Uber', totalAmount: 16.55, purchaseDate: '2026-11-20', isAcceptable: true, needsManualReview: false })
  }, 60_000)
})

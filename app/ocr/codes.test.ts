import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { findCodes, paintOverCodes } from '~/ocr/codes'
import type { Grey } from '~/ocr/grey.server'
import { prepareForOcr } from '~/ocr/preprocess.server'

/** A seeded square of random modules with QR finder patterns in three corners, as SVG rects. */
function qrModules(x: number, y: number, modules: number, size: number, seed = 7): string {
  let s = seed
  const random = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const dark = (r: number, c: number) => {
    for (const [fr, fc] of [[0, 0], [0, modules - 7], [modules - 7, 0]]) {
      const rr = r - fr
      const cc = c - fc
      if (rr >= 0 && rr < 7 && cc >= 0 && cc < 7) return rr === 0 || rr === 6 || cc === 0 || cc === 6 || (rr >= 2 && rr <= 4 && cc >= 2 && cc <= 4)
    }
    return random() < 0.5
  }
  let rects = ''
  for (let r = 0; r < modules; r++) for (let c = 0; c < modules; c++) if (dark(r, c)) rects += `<rect x="${x + c * size}" y="${y + r * size}" width="${size}" height="${size}" fill="#000"/>`
  return rects
}

/** A ticket-like page: a heading, rows of text (a real DB Online-Ticket's), a code beside them and a masked field. */
function ticketSvg(withCode: boolean): string {
  const rows = ['IC/EC Fahrkarte', 'Gültigkeit: 17.02.2016 - 16.03.2016', 'Klasse: 2', 'Hinfahrt: Magdeburg+City → Hannover+City', 'Positionen   Preis', 'IC/EC Fahrkarte   1   31,00€', 'Summe   31,00€', 'Betrag 31,00€   Bank Postbank', 'Datum 16.02.2016']
  const text = rows.map((t, i) => `<text x="40" y="${140 + i * 34}" font-family="DejaVu Sans" font-size="22" fill="#000">${t}</text>`).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="520"><rect width="1000" height="520" fill="#fff"/>
    <text x="40" y="70" font-family="DejaVu Sans" font-weight="bold" font-size="40">Online-Ticket</text>${text}
    ${withCode ? qrModules(640, 100, 45, 7) : ''}<rect x="640" y="440" width="300" height="50" fill="#000"/></svg>`
}

async function greyOf(svg: string): Promise<Grey> {
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true })
  return { data: new Uint8Array(data), width: info.width, height: info.height }
}

describe('two-dimensional codes (issue 37)', () => {
  test('a QR code beside a ticket’s text is found, and nothing else is: not the text, the bold heading or a masked field', async () => {
    const boxes = findCodes(await greyOf(ticketSvg(true)), 30)
    expect(boxes).toHaveLength(1)
    const [b] = boxes
    // The code spans 640..955 x 100..415: the cells found lie inside it.
    expect(b.left).toBeGreaterThanOrEqual(630)
    expect(b.right).toBeLessThanOrEqual(970)
    expect(b.top).toBeGreaterThanOrEqual(90)
    expect(b.bottom).toBeLessThanOrEqual(425)
    expect(findCodes(await greyOf(ticketSvg(false)), 30)).toEqual([])
  })

  test('painting over it leaves paper where the code was, to its own edges, and every text pixel as it was', async () => {
    const page = await greyOf(ticketSvg(true))
    const before = Uint8Array.from(page.data)
    const [box] = paintOverCodes(page, 30)
    expect(box.left).toBeLessThanOrEqual(641)
    expect(box.top).toBeLessThanOrEqual(101)
    expect(box.right).toBeGreaterThanOrEqual(954)
    expect(box.bottom).toBeGreaterThanOrEqual(414)
    let inkLeft = 0
    for (let y = 100; y < 415; y++) for (let x = 640; x < 955; x++) if (page.data[y * page.width + x] < 128) inkLeft++
    expect(inkLeft).toBe(0)
    // The text column (x < 600) and the masked field are untouched.
    let changed = 0
    for (let y = 0; y < page.height; y++) for (let x = 0; x < 600; x++) if (page.data[y * page.width + x] !== before[y * page.width + x]) changed++
    expect(changed).toBe(0)
    expect(page.data[460 * page.width + 700]).toBe(before[460 * page.width + 700])
  })

  test('the image tesseract reads has no code in it', async () => {
    const png = await sharp(Buffer.from(ticketSvg(true))).png().toBuffer()
    const prepared = await prepareForOcr(png)
    const header = prepared.image.subarray(0, 20).toString('latin1')
    const [, w, h] = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(header)!
    const data = prepared.image.subarray(prepared.image.length - Number(w) * Number(h))
    const codeFound = findCodes({ data, width: Number(w), height: Number(h) }, 30)
    expect(codeFound).toEqual([])
  })
})

import fs from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, test } from 'vitest'
import { closeBlankRows, flattenBackground, greyShare, invertDarkRows, prepareForOcr } from '~/ocr/preprocess.server'
import { ReceiptImageError, sniffImageFormat, validateReceiptImage } from '~/ocr/photo.server'
import { closeOcrPool, languageOcr } from '~/ocr/tesseract.server'

const fixture = (name: string) => fs.readFileSync(path.resolve('tests/fixtures/receipts', name))
const blank = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#fff' } })

async function rejects(buf: Buffer | null, code: string, message: string) {
  const error = await validateReceiptImage(buf).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ReceiptImageError)
  expect(error).toMatchObject({ code, message, status: 400 })
}

describe('validateReceiptImage', () => {
  test('accepts a receipt photo and reports its size', async () => {
    await expect(validateReceiptImage(fixture('dev-015-bird.jpg'))).resolves.toMatchObject({ format: 'jpeg' })
  })

  test('no file', async () => {
    await rejects(null, 'missing', 'No image file provided')
    await rejects(Buffer.alloc(0), 'missing', 'No image file provided')
  })

  test('not an image, whatever the name says', async () => {
    await rejects(Buffer.from('%PDF-1.7 receipt.jpg'), 'invalid_type', 'Invalid file type. Please upload an image')
    await rejects(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'invalid_type', 'Invalid file type. Please upload an image')
  })

  test('larger than 5 MB', async () => {
    const png = await blank(600, 600).png().toBuffer()
    await rejects(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]), 'too_large', 'Image file is too large. Maximum size is 5MB')
  })

  test('narrower than 500 px', async () => {
    await rejects(await blank(499, 900).png().toBuffer(), 'too_small', 'Image resolution is too low. Please take a clearer photo')
  })

  test('width is judged after EXIF orientation', async () => {
    // Stored 400 x 800, displayed 800 x 400 (orientation 6 = rotate 90).
    const rotated = await blank(400, 800).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    await expect(validateReceiptImage(rotated)).resolves.toMatchObject({ width: 800, height: 400 })
    const upright = await blank(800, 400).jpeg().withMetadata({ orientation: 6 }).toBuffer()
    await rejects(upright, 'too_small', 'Image resolution is too low. Please take a clearer photo')
  })

  test('truncated or corrupt data', async () => {
    const jpeg = fixture('dev-015-bird.jpg')
    await rejects(jpeg.subarray(0, 200), 'unreadable', 'Failed to load image for validation')
  })

  test('decompression bomb', async () => {
    // 10000 x 10000 of one colour compresses to a few kB but would need 300 MB of pixels.
    const bomb = await blank(10_000, 10_000).png({ compressionLevel: 9 }).toBuffer()
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024)
    await rejects(bomb, 'unreadable', 'Failed to load image for validation')
  })

  test.each([
    [[0xff, 0xd8, 0xff, 0xe0], 'jpeg'],
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'png'],
    [[...Buffer.from('RIFF\0\0\0\0WEBP')], 'webp'],
    [[...Buffer.from('GIF89a')], 'gif'],
    [[0, 0, 0, 0x18, ...Buffer.from('ftypheic')], 'heif'],
    [[0, 0, 0, 0x18, ...Buffer.from('ftypavif')], 'heif'],
    [[...Buffer.from('II*\0')], 'tiff'],
    [[...Buffer.from('BM')], null],
  ])('sniffs %j as %s', (bytes, format) => {
    expect(sniffImageFormat(Uint8Array.from(bytes))).toBe(format)
  })
})

describe('prepareForOcr', () => {
  test('crops, straightens and scales a skewed photo to a PGM', async () => {
    const p = await prepareForOcr(fixture('dev-003-lyft.jpg'))
    expect(p.image.subarray(0, 2).toString()).toBe('P5')
    expect(p.cropped).toBe(true)
    // The photo is rotated by about 5.7 degrees.
    expect(Math.abs(p.skewDegrees - 5.7)).toBeLessThan(0.6)
    expect(Math.max(p.width, p.height)).toBeLessThanOrEqual(2000)
  })

  test('leaves a straight screenshot alone', async () => {
    const p = await prepareForOcr(fixture('dev-012-tesla.png'))
    expect(p.skewDegrees).toBe(0)
    expect(p.cropped).toBe(false)
  })
})

/** The prepared PGM as grey pixels. */
function pgmGrey(pgm: Buffer) {
  const header = /^P5\n(\d+) (\d+)\n255\n/.exec(pgm.toString('latin1', 0, 32))!
  return { data: new Uint8Array(pgm.subarray(header[0].length)), width: Number(header[1]), height: Number(header[2]) }
}

/** A photo under heavy grain, blurred into blobs as a phone's JPEG does (seeded, so the same every run). */
async function grainy(photo: Buffer) {
  const { data, info } = await sharp(photo).greyscale().raw().toBuffer({ resolveWithObject: true })
  let seed = 23
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
  const out = Buffer.alloc(info.width * info.height)
  for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, data[i * info.channels] + (random() - 0.5) * 220))
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } }).blur(1.2).jpeg({ quality: 45 }).toBuffer()
}

/** Dark pixels with at most one dark neighbour of four: grain, not strokes. */
function specks(g: { data: Uint8Array; width: number; height: number }) {
  const { data, width: w, height: h } = g
  let n = 0
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x
      if (data[i] >= 128) continue
      const dark = Number(data[i - 1] < 128) + Number(data[i + 1] < 128) + Number(data[i - w] < 128) + Number(data[i + w] < 128)
      if (dark < 2) n++
    }
  }
  return n
}

describe('despeckling a grainy photo (issue 23)', () => {
  test('a grainy photo gets the median filter: the specks tesseract would read as text are gone', async () => {
    const noisy = await grainy(fixture('dev-003-lyft.jpg'))
    const without = pgmGrey((await prepareForOcr(noisy, { despeckleAbove: 0 })).image)
    const withIt = pgmGrey((await prepareForOcr(noisy)).image)
    expect(greyShare(without)).toBeGreaterThan(0.1)
    expect(specks(withIt)).toBeLessThan(specks(without) / 5)
  })

  test('a clean photo and a screenshot are left exactly as before', async () => {
    for (const name of ['dev-003-lyft.jpg', 'dev-012-tesla.png']) {
      const plain = await prepareForOcr(fixture(name), { despeckleAbove: 0 })
      expect(greyShare(pgmGrey(plain.image))).toBeLessThan(0.1)
      expect((await prepareForOcr(fixture(name))).image.equals(plain.image)).toBe(true)
    }
  })
})

describe('flattenBackground', () => {
  test('uneven paper becomes white while ink stays dark', () => {
    const width = 128
    const height = 64
    const data = new Uint8Array(width * height)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        // Paper shaded from 140 on the left to 220 on the right, blotchy like JPEG blocks; before
        // flattening the darkest paper (140) is darker than the threshold between 110 and 205.
        const paper = 140 + (80 * x) / width + ((x >> 3) + (y >> 3)) % 2 * 12
        const ink = y >= 24 && y < 34 && x % 6 < 3
        data[y * width + x] = ink ? Math.round(paper * 0.35) : Math.round(paper)
      }
    }
    flattenBackground({ data, width, height }, 16)
    const paperPixels: number[] = []
    const inkPixels: number[] = []
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const v = data[y * width + x]
        if (y >= 24 && y < 34 && x % 6 < 3) inkPixels.push(v)
        else if (y < 16 || y >= 44) paperPixels.push(v)
      }
    }
    expect(Math.min(...paperPixels)).toBeGreaterThanOrEqual(205)
    expect(Math.max(...inkPixels)).toBeLessThanOrEqual(110)
  })
})

describe('real sizes (issue 37)', () => {
  /** The prepared image's text rows: the median height of the runs of rows holding ink. */
  function rowHeight(g: { data: Uint8Array; width: number; height: number }) {
    const runs: number[] = []
    let run = 0
    for (let y = 0; y <= g.height; y++) {
      let ink = 0
      if (y < g.height) for (let x = 0; x < g.width; x++) if (g.data[y * g.width + x] < 128) ink++
      if (ink > 2) run++
      else if (run > 0) {
        if (run >= 8) runs.push(run)
        run = 0
      }
    }
    runs.sort((a, b) => a - b)
    return runs[Math.floor(runs.length / 2)]
  }

  test('a 12 MP phone photo is read at its text size, like the same photo at 1 MP', async () => {
    const small = fixture('dev-015-bird.jpg')
    const meta = await sharp(small).metadata()
    const k = Math.sqrt(12e6 / (meta.width! * meta.height!))
    const big = await sharp(small).resize({ width: Math.round(meta.width! * k), kernel: 'lanczos3' }).jpeg({ quality: 88 }).toBuffer()
    const [a, b] = [await prepareForOcr(small), await prepareForOcr(big)]
    expect(Math.abs(b.width - a.width) / a.width).toBeLessThan(0.25)
    const rows = rowHeight(pgmGrey(b.image))
    expect(rows).toBeGreaterThanOrEqual(20)
    expect(rows).toBeLessThanOrEqual(36)
  })

  test('a long screenshot keeps its text size and its footer; its blank stretches are closed', async () => {
    const receipt = await sharp(fixture('dev-012-tesla.png')).flatten({ background: '#fff' }).resize({ width: 1170 }).png().toBuffer()
    const receiptHeight = (await sharp(receipt).metadata()).height!
    const footer = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="120"><text x="585" y="70" font-size="40" font-family="DejaVu Sans" text-anchor="middle">Tesla · Help · Privacy</text></svg>')
    const page = await sharp({ create: { width: 1170, height: 6400, channels: 3, background: '#fff' } })
      .composite([{ input: receipt, top: 200, left: 0 }, { input: footer, top: 6250, left: 0 }])
      .png()
      .toBuffer()
    const p = await prepareForOcr(page)
    const g = pgmGrey(p.image)
    expect(g.width).toBeGreaterThan(700)
    // The receipt's rows and the footer's, with one and a half rows between blocks: far less than 6400 scaled.
    expect(g.height).toBeLessThan(p.scale * (receiptHeight + 800))
    let lastInk = 0
    for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.data[y * g.width + x] < 128) lastInk = y
    expect(lastInk).toBeGreaterThan(g.height - 120)
    expect(rowHeight(g)).toBeGreaterThanOrEqual(20)
  })

  test("a long screenshot's black footer is read as dark text on light, and its tinted header is not cropped off", async () => {
    // Issue 37, a real Uber receipt e-mail as a phone screenshot: a tinted header with the total and
    // date, the receipt on white, and a black footer whose grey "Uber Technologies" is the only brand
    // text (the logo is an image). Left black, the footer was cropped off as not paper.
    const receipt = await sharp(fixture('dev-012-tesla.png')).flatten({ background: '#fff' }).resize({ width: 1170 }).png().toBuffer()
    const header = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="600"><rect width="1170" height="600" fill="#fdf2dc"/><text x="80" y="380" font-size="84" font-family="DejaVu Sans">Thanks for riding</text></svg>')
    const footer = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="1170" height="900"><rect width="1170" height="900" fill="#000"/>' +
        '<text x="72" y="200" font-size="44" fill="#fff" font-family="DejaVu Sans">Privacy policy</text>' +
        '<text x="72" y="560" font-size="40" fill="#9e9e9e" font-family="DejaVu Sans">Uber Technologies</text>' +
        '<text x="72" y="620" font-size="40" fill="#9e9e9e" font-family="DejaVu Sans">1725 3rd Street,</text></svg>',
    )
    const page = await sharp({ create: { width: 1170, height: 7000, channels: 3, background: '#fff' } })
      .composite([{ input: header, top: 0, left: 0 }, { input: receipt, top: 700, left: 0 }, { input: footer, top: 6100, left: 0 }])
      .png()
      .toBuffer()
    const p = await prepareForOcr(page)
    const g = pgmGrey(p.image)
    // Not cropped: the header's line is within the first rows, and the footer's text ink comes last.
    let firstInk = -1
    let lastInk = 0
    for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.data[y * g.width + x] < 128) (firstInk < 0 && (firstInk = y), (lastInk = y))
    expect(firstInk).toBeLessThan(400 * p.scale)
    expect(lastInk).toBeGreaterThan(g.height - 12 * 30)
    // The footer piece is the footer, read as dark on light.
    const footerText = await languageOcr('eng')(p.bands!.at(-1)!)
    expect(footerText.text).toMatch(/Uber Technologies/)
    await closeOcrPool()
  })

  test('invertDarkRows turns the rows of a dark band light, and leaves light rows with dark text alone', () => {
    const width = 100
    const data = new Uint8Array(width * 4).fill(255)
    data.fill(0, 0, 10) // a light row with some text
    data.fill(0, width, 3 * width) // two black rows...
    data.fill(160, width + 40, width + 50) // ...one with grey text
    data.fill(243, 3 * width, 4 * width) // a tinted light row
    expect(invertDarkRows({ data, width, height: 4 })).toBe(2)
    expect(data[0]).toBe(0)
    expect(data[width]).toBe(255)
    expect(data[width + 45]).toBe(95)
    expect(data[3 * width]).toBe(243)
  })

  test('invertDarkRows leaves a thin rule, a grainy dark surface and an empty image alone', () => {
    const width = 100
    const height = 1000
    const page = () => new Uint8Array(width * height).fill(255)
    // A black rule two rows high on a 1000-row page: under DARK_BAND_MIN_SHARE.
    const rule = page()
    rule.fill(0, 500 * width, 502 * width)
    expect(invertDarkRows({ data: rule, width, height })).toBe(0)
    // A dark table in a photo: its grey levels spread (grain, shading), so it is no screen's fill.
    const grainy = page()
    for (let i = 0; i < 200 * width; i++) grainy[i] = 20 + ((i * 7919) % 61)
    expect(invertDarkRows({ data: grainy, width, height })).toBe(0)
    // The same rows flat black are a band.
    const flat = page()
    flat.fill(0, 0, 200 * width)
    expect(invertDarkRows({ data: flat, width, height })).toBe(200)
    expect(invertDarkRows({ data: new Uint8Array(0), width: 0, height: 10 })).toBe(0)
  })

  test('closeBlankRows closes blank stretches over two rows to one and a half, and keeps every inked row', () => {
    const width = 10
    const rows = [...Array(5).fill(1), ...Array(200).fill(0), ...Array(3).fill(1), ...Array(40).fill(0), 1]
    const data = new Uint8Array(width * rows.length).fill(255)
    rows.forEach((ink, y) => ink && data.fill(0, y * width, y * width + 3))
    const out = closeBlankRows({ data, width, height: rows.length }, 30)
    expect(out.height).toBe(5 + 45 + 3 + 40 + 1)
    let inked = 0
    for (let y = 0; y < out.height; y++) inked += out.data[y * width] === 0 ? 1 : 0
    expect(inked).toBe(9)
  })
})

import sharp from 'sharp'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  FINGERPRINT_BITS,
  FINGERPRINT_MAX_DISTANCE,
  fingerprintDistance,
  fingerprintsMatch,
  receiptFingerprint,
} from '~/ocr/fingerprint.server'
import { differenceHash } from '~/ocr/phash.server'

const TABLE = '#3c4a48'
type Line = [left: string, right: string]

/**
 * A photographed receipt: light paper with lines of "text" on a darker table. Each character is a
 * 3x5 block glyph taken from its code, so the picture does not depend on the fonts installed.
 */
async function receiptPhoto(lines: Line[]): Promise<Buffer> {
  const W = 1000
  const H = 1300
  const paper = { x: 100, y: 120, w: 800, h: 1060 }
  const cell = 4
  const rects: string[] = []
  let y = paper.y + 70
  lines.forEach(([left, right], i) => {
    const size = i === 0 ? 2 : 1
    const draw = (text: string, x0: number) => {
      for (let c = 0; c < text.length; c++) {
        if (text[c] === ' ') continue
        let bits = (text.charCodeAt(c) * 2654435761) >>> 7
        for (let gy = 0; gy < 5; gy++) {
          for (let gx = 0; gx < 3; gx++) {
            if (bits & 1 || (gx === 1 && gy === 2)) {
              rects.push(`<rect x="${x0 + (c * 4 + gx) * cell * size}" y="${y + gy * cell * size}" width="${cell * size}" height="${cell * size}"/>`)
            }
            bits >>>= 1
          }
        }
      }
    }
    draw(left, paper.x + 50)
    if (right) draw(right, paper.x + paper.w - 50 - right.length * 4 * cell)
    y += (i === 0 ? 70 : 40) + (i % 3 === 2 ? 30 : 0)
  })
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">` +
    `<rect width="${W}" height="${H}" fill="${TABLE}"/>` +
    `<rect x="${paper.x}" y="${paper.y}" width="${paper.w}" height="${paper.h}" fill="#efeee8"/>` +
    `<g fill="#202020">${rects.join('')}</g></svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer()
}

// One vendor template, two rides.
const EMMA: Line[] = [
  ['UBER', ''],
  ['Thanks for riding, Emma', ''],
  ['Jun 15, 2026', ''],
  ['Trip fare', '$36.58'],
  ['Booking fee', '$2.68'],
  ['Total', '$39.26'],
  ['Amex ****5052', ''],
  ['Pickup 6:50 AM', ''],
  ['17.6 mi 13 min UberX', ''],
]
const CHRISTOPHER: Line[] = [
  ['UBER', ''],
  ['Thanks for riding, Christopher', ''],
  ['Nov 3, 2026', ''],
  ['Trip fare', '$4.10'],
  ['Booking fee', '$1.15'],
  ['Total', '$5.25'],
  ['Visa ****0187', ''],
  ['Pickup 11:02 PM', ''],
  ['2.1 mi 9 min UberX', ''],
]

const FORMAT = /^v2:[0-9a-f]{144}$/
const jpeg = (s: ReturnType<typeof sharp>, quality = 92) => s.jpeg({ quality }).toBuffer()

let original: Buffer
let fingerprint: string
let width: number
let height: number

beforeAll(async () => {
  original = await receiptPhoto(EMMA)
  fingerprint = await receiptFingerprint(original)
  const meta = await sharp(original).metadata()
  width = meta.width!
  height = meta.height!
})

describe('receiptFingerprint', () => {
  test('is a versioned 575-bit hex string, the same for the same bytes', async () => {
    expect(FINGERPRINT_BITS).toBe(575)
    expect(fingerprint).toMatch(FORMAT)
    expect(await receiptFingerprint(original)).toBe(fingerprint)
    expect(fingerprintsMatch(fingerprint, fingerprint)).toBe(true)
  })

  const copies: Array<[string, () => Promise<Buffer>]> = [
    ['rotated 1.5 degrees', () => jpeg(sharp(original).rotate(1.5, { background: TABLE }))],
    ['rotated -1.5 degrees', () => jpeg(sharp(original).rotate(-1.5, { background: TABLE }))],
    ['scaled to 85 %', () => jpeg(sharp(original).resize(Math.round(width * 0.85)))],
    ['scaled to 115 %', () => jpeg(sharp(original).resize(Math.round(width * 1.15)))],
    [
      'cropped by 4 % on every side',
      () => {
        const dx = Math.round(width * 0.04)
        const dy = Math.round(height * 0.04)
        return jpeg(sharp(original).extract({ left: dx, top: dy, width: width - 2 * dx, height: height - 2 * dy }))
      },
    ],
    ['cropped by 4 % on one side', () => jpeg(sharp(original).extract({ left: 0, top: 0, width: Math.round(width * 0.96), height }))],
    ['re-encoded at JPEG quality 60', () => jpeg(sharp(original), 60)],
    ['saved as PNG', () => sharp(original).png().toBuffer()],
  ]
  test.each(copies)('a copy %s matches', async (_name, make) => {
    const copy = await receiptFingerprint(await make())
    expect(copy).toMatch(FORMAT)
    expect(fingerprintDistance(fingerprint, copy)).toBeLessThanOrEqual(FINGERPRINT_MAX_DISTANCE)
    expect(fingerprintsMatch(fingerprint, copy)).toBe(true)
    expect(fingerprintsMatch(copy, fingerprint)).toBe(true)
  })

  test('another receipt of the same template does not match, nor do its copies', async () => {
    const other = await receiptPhoto(CHRISTOPHER)
    const otherFingerprint = await receiptFingerprint(other)
    expect(fingerprintDistance(fingerprint, otherFingerprint)).toBeGreaterThan(FINGERPRINT_MAX_DISTANCE)
    expect(fingerprintsMatch(fingerprint, otherFingerprint)).toBe(false)
    const rotated = await receiptFingerprint(await jpeg(sharp(other).rotate(1.5, { background: TABLE }), 70))
    expect(fingerprintsMatch(fingerprint, rotated)).toBe(false)
    expect(fingerprintsMatch(otherFingerprint, rotated)).toBe(true)
  })

  test('an unrelated picture is about half the bits away', async () => {
    const data = Buffer.alloc(800 * 600 * 3)
    for (let i = 0; i < data.length; i++) data[i] = ((i * 7919) >>> 3) % 251
    const noise = await receiptFingerprint(await sharp(data, { raw: { width: 800, height: 600, channels: 3 } }).png().toBuffer())
    expect(noise).toMatch(FORMAT)
    expect(fingerprintsMatch(fingerprint, noise)).toBe(false)
  })
})

describe('fingerprintsMatch', () => {
  test('never matches an old 16-hex-digit dHash against a new fingerprint', async () => {
    const old = await differenceHash(original)
    expect(old).toMatch(/^[0-9a-f]{16}$/)
    expect(fingerprintsMatch(old, fingerprint)).toBe(false)
    expect(fingerprintsMatch(fingerprint, old)).toBe(false)
    // The new hex digits with the prefix dropped, or the old value given the prefix: still no.
    expect(fingerprintsMatch(fingerprint.slice(3), fingerprint)).toBe(false)
    expect(fingerprintsMatch(`v2:${old}`, fingerprint)).toBe(false)
  })

  test('still compares two old dHash values the old way', async () => {
    const old = await differenceHash(original)
    const flipped = (parseInt(old[15], 16) ^ 1).toString(16)
    expect(fingerprintsMatch(old, old)).toBe(true)
    expect(fingerprintsMatch(old, old.slice(0, 15) + flipped)).toBe(true)
    expect(fingerprintsMatch('0000000000000000', 'ffffffffffffffff')).toBe(false)
  })

  test('malformed values never match', () => {
    const hex = fingerprint.slice(3)
    const malformed = [
      '',
      'v2:',
      fingerprint.slice(0, -1),
      `${fingerprint}0`,
      `v1:${hex}`,
      `V2:${hex}`,
      `v2:${hex.toUpperCase()}`,
      `v2:${hex.slice(0, -1)}g`,
      ` ${fingerprint}`,
      `v2:${hex}\n`,
    ]
    for (const bad of malformed) {
      expect(fingerprintsMatch(bad, fingerprint), JSON.stringify(bad)).toBe(false)
      expect(fingerprintsMatch(fingerprint, bad), JSON.stringify(bad)).toBe(false)
      expect(fingerprintsMatch(bad, bad), JSON.stringify(bad)).toBe(false)
    }
    expect(fingerprintsMatch(null as unknown as string, fingerprint)).toBe(false)
    expect(fingerprintDistance('v2:00', fingerprint)).toBeNull()
  })

  test('distance is the Hamming distance of the bits', () => {
    const hex = fingerprint.slice(3)
    const flip = (i: number) => (parseInt(hex[i], 16) ^ 0b1000).toString(16)
    let changed = hex
    for (let i = 0; i < 10; i++) changed = changed.slice(0, i) + flip(i) + changed.slice(i + 1)
    expect(fingerprintDistance(fingerprint, `v2:${changed}`)).toBe(10)
    const all = hex.replace(/./g, (d) => (parseInt(d, 16) ^ 0xf).toString(16))
    expect(fingerprintDistance(fingerprint, `v2:${all}`)).toBe(144 * 4)
    expect(fingerprintsMatch(fingerprint, `v2:${all}`)).toBe(false)
  })
})

/**
 * How well the receipt-photo fingerprint (app/ocr/fingerprint.server.ts) catches copies of a
 * receipt and keeps distinct receipts apart (issue 10):
 *   tsx scripts/bench/duplicates.ts [--receipts DIR] [--seed N]   (npm run bench:duplicates)
 * DIR defaults to ../shared/receipts-dev from the repo root. Prints one JSON object.
 *
 * For every receipt, copies made with a seeded PRNG (the same run gives the same copies):
 *   rotate   -2, +2 and two random angles of 0.25..2 degrees (canvas grows, filled with the border colour)
 *   scale    the whole picture resized x0.8, x1.2 and two random factors in between
 *   zoom     the content scaled about the centre in the same frame: x0.8, x0.85..0.95, x1.03..1.11
 *            (x1.11 cuts 5 % off every side, the most the crop rule allows)
 *   crop     5 % off the left / right / top / bottom, 5 % off every side, random 0..5 % a side
 *   jpeg     re-encoded at quality 60, 75, 95 and one random 60..95
 *   rephoto  "photographed again": rotate 0.3..2 degrees, resize x0.8..1.2, gaussian blur
 *            sigma 0.4..1, gaussian noise sigma 3..10 grey levels, JPEG 60..90 (three a receipt)
 * and two stress sets outside the ranges, reported apart and not in the headline rate:
 *   stress_zoom     content x1.2 in the same frame (8.3 % cut off every side)
 *   stress_relight  rephoto + exposure x0.9..1.1 + a linear light ramp of 3..10 % across the frame
 *
 * Distinct receipts: every pair of originals (63 -> 1953 pairs), and every copy against every
 * other receipt's original. The old 64-bit dHash (phash.server.ts, threshold 5) is measured on the
 * same copies.
 *
 * What was tried (63 receipts, ~1450 in-spec copies, 1953 distinct pairs; "copy max / p99.5" vs
 * "distinct min" in bits, Hamming on median-thresholded DCT coefficients unless said otherwise):
 * - Whole image, no geometry (like dHash) + DCT 8x8: misses most rotations/crops (the paper moves).
 * - analyseLayout paper + ink box from the raw ink extremes: 15-50 % of copies landed at ~50 % of
 *   the bits: the paper's dark rim and noise specks count as ink, so the box jumps. Fixed by eroding
 *   the paper interior (1.2 % of the side), a 5x5 blur before the ink threshold, and the
 *   2nd..98th ink percentiles instead of the extremes (trimming only 0.5 % or 1 %: noisy dim
 *   photos still moved the box, copy max 32 against 28 with 2 %).
 * - Grey levels instead of ink density: similar on the plain copies, but a light ramp across the
 *   frame (stress_relight) broke 10 % of the copies until the paper brightness was divided out
 *   (flattenBackground) both for finding the ink and for the sampled grid.
 * - DCT block size on the 64x64 grid (ink density, flattened): 12x12 (143 bits) copy max 10 vs
 *   distinct min 4; 16x16 (255) 26 / p99.5 14 vs 20; 20x20 (399) 44 / 24 vs 32; 24x24 (575)
 *   62 / 40 vs 58 (next distinct pair 68); 28x28 (783) 104 / 62 vs 76; 32x16, 16x32, 28x20,
 *   20x28: 74 / 56 / 76 / 60 vs 50 / 48 / 54 / 50. 24x24 separates best.
 * - 32x32 grid: worse (dct24 copy max 106 vs distinct 50). 700 px analysis copy: no better
 *   (dct24 70 vs 54) and ~60 ms a photo. 400 px: 26 ms instead of 37, but copies p99.5 44 vs the
 *   nearest distinct comparison 42: 99.1 % caught at the largest collision-free tolerance.
 * - Chosen: 500 px, ink density, 64x64 grid, 24x24 DCT, tolerance 42 bits; see
 *   FINGERPRINT_MAX_DISTANCE for its figures.
 * - Real-valued DCT compared by cosine distance: 16x16 grey separated the plain copies completely
 *   (copy max 0.009 vs distinct 0.015) but not once light changes; on ink density it is no
 *   better than the bits (copy max 0.0087 vs distinct 0.0052).
 * - Per-tile DCT hashes (4x4 tiles of 4x4 / 6x6 coefficients, 8x8 tiles of 3x3): empty tiles
 *   have no stable median, distinct pairs come as close as 22 with copies at 57: worse.
 * - Cell-density bits (16x16 / 8x8 cells above the median): mostly-white pages tie at the median,
 *   many distinct pairs at distance 0.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import {
  FINGERPRINT_BITS,
  FINGERPRINT_MAX_DISTANCE,
  FINGERPRINT_VERSION,
  fingerprintDistance,
  receiptFingerprint,
} from '~/ocr/fingerprint.server'
import { differenceHash, hammingDistance, NEAR_DUPLICATE_DISTANCE } from '~/ocr/phash.server'
import { mulberry32, type Rng } from './random'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const IMAGE = /\.(jpe?g|png|webp)$/i

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

// --- seeded randomness ------------------------------------------------------

const uniform = (r: Rng, a: number, b: number) => a + (b - a) * r()
const gauss = (r: Rng) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r())
const signed = (r: Rng, lo: number, hi: number) => (r() < 0.5 ? -1 : 1) * uniform(r, lo, hi)

// --- copies -----------------------------------------------------------------

type Copy = { transform: string; params: string; image: Buffer }
const STRESS = new Set(['stress_zoom', 'stress_relight'])
const REQUIREMENTS: Record<string, string[]> = {
  rotated: ['rotate'],
  scaled: ['scale', 'zoom'],
  cropped: ['crop'],
  reencoded: ['jpeg'],
  rephotographed: ['rephoto'],
}

/** Mean colour of the picture's outer ring (what a rotation or a zoom-out reveals). */
async function borderColour(buf: Buffer) {
  const { data, info } = await sharp(buf).resize(64, 64, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true })
  const acc = [0, 0, 0]
  let n = 0
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      if (x > 0 && x < 63 && y > 0 && y < 63) continue
      for (let k = 0; k < 3; k++) acc[k] += data[(y * 64 + x) * info.channels + Math.min(k, info.channels - 1)]
      n++
    }
  }
  return { r: Math.round(acc[0] / n), g: Math.round(acc[1] / n), b: Math.round(acc[2] / n) }
}

type Pipeline = ReturnType<typeof sharp>
const lossless = (s: Pipeline) => s.png({ compressionLevel: 1 }).toBuffer()

async function makeCopies(original: Buffer, r: Rng): Promise<Copy[]> {
  const base = await sharp(original).rotate().flatten({ background: '#ffffff' }).removeAlpha().png({ compressionLevel: 1 }).toBuffer()
  const meta = await sharp(base).metadata()
  const W = meta.width!
  const H = meta.height!
  const bg = await borderColour(base)
  const out: Copy[] = []
  for (const a of [-2, 2, signed(r, 0.25, 1), signed(r, 1, 2)]) {
    out.push({ transform: 'rotate', params: `${a.toFixed(2)}deg`, image: await lossless(sharp(base).rotate(a, { background: bg })) })
  }
  for (const s of [0.8, 1.2, uniform(r, 0.8, 0.95), uniform(r, 1.05, 1.2)]) {
    out.push({ transform: 'scale', params: `x${s.toFixed(3)}`, image: await lossless(sharp(base).resize(Math.round(W * s), Math.round(H * s))) })
  }
  for (const s of [0.8, uniform(r, 0.85, 0.95), uniform(r, 1.03, 1.11), 1.2]) {
    const w = Math.round(W * s)
    const h = Math.round(H * s)
    const scaled = await sharp(base).resize(w, h).png({ compressionLevel: 1 }).toBuffer()
    let img: Pipeline
    if (s > 1) {
      img = sharp(scaled).extract({ left: Math.floor((w - W) / 2), top: Math.floor((h - H) / 2), width: W, height: H })
    } else {
      const l = Math.floor((W - w) / 2)
      const t = Math.floor((H - h) / 2)
      img = sharp(scaled).extend({ left: l, right: W - w - l, top: t, bottom: H - h - t, background: bg })
    }
    out.push({ transform: s > 1.111 ? 'stress_zoom' : 'zoom', params: `x${s.toFixed(3)}`, image: await lossless(img) })
  }
  const random = [r(), r(), r(), r()].map((v) => v * 0.05)
  const crops: Array<[string, number, number, number, number]> = [
    ['left5%', 0.05, 0, 0, 0],
    ['right5%', 0, 0.05, 0, 0],
    ['top5%', 0, 0, 0.05, 0],
    ['bottom5%', 0, 0, 0, 0.05],
    ['all-sides5%', 0.05, 0.05, 0.05, 0.05],
    [`l/r/t/b ${random.map((v) => (v * 100).toFixed(1)).join('/')}%`, ...(random as [number, number, number, number])],
  ]
  for (const [name, l, rr, t, b] of crops) {
    const left = Math.round(W * l)
    const top = Math.round(H * t)
    const width = W - left - Math.round(W * rr)
    const height = H - top - Math.round(H * b)
    out.push({ transform: 'crop', params: name, image: await lossless(sharp(base).extract({ left, top, width, height })) })
  }
  for (const q of [60, 75, 95, Math.round(uniform(r, 60, 95))]) {
    out.push({ transform: 'jpeg', params: `q${q}`, image: await sharp(base).jpeg({ quality: q }).toBuffer() })
  }
  for (let k = 0; k < 5; k++) {
    const relight = k >= 3
    const a = signed(r, 0.3, 2)
    const s = uniform(r, 0.8, 1.2)
    const sigma = uniform(r, 3, 10)
    const blur = uniform(r, 0.4, 1.0)
    const q = Math.round(uniform(r, 60, 90))
    const gain = relight ? uniform(r, 0.9, 1.1) : 1
    const ramp = relight ? uniform(r, 0.03, 0.1) : 0
    const dir = uniform(r, 0, 2 * Math.PI)
    const { data, info } = await sharp(base).rotate(a, { background: bg }).resize(Math.round(W * s)).blur(blur).raw().toBuffer({ resolveWithObject: true })
    const dx = Math.cos(dir) / info.width
    const dy = Math.sin(dir) / info.height
    for (let y = 0; y < info.height; y++) {
      for (let x = 0; x < info.width; x++) {
        const f = gain * (1 + 2 * ramp * ((x - info.width / 2) * dx + (y - info.height / 2) * dy))
        for (let c = 0; c < info.channels; c++) {
          const i = (y * info.width + x) * info.channels + c
          data[i] = Math.max(0, Math.min(255, Math.round(data[i] * f + sigma * gauss(r))))
        }
      }
    }
    const image = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: q }).toBuffer()
    const params = `${a.toFixed(2)}deg x${s.toFixed(2)} blur${blur.toFixed(2)} noise${sigma.toFixed(1)} q${q}`
    out.push({
      transform: relight ? 'stress_relight' : 'rephoto',
      params: relight ? `${params} exposure${gain.toFixed(2)} ramp${(ramp * 100).toFixed(0)}%` : params,
      image,
    })
  }
  return out
}

// --- statistics -------------------------------------------------------------

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}
const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b)
  return { min: s[0], p1: percentile(s, 0.01), p5: percentile(s, 0.05), median: percentile(s, 0.5), p90: percentile(s, 0.9), p99: percentile(s, 0.99), p995: percentile(s, 0.995), max: s[s.length - 1] }
}

type Row = { file: string; transform: string; params: string; distance: number; oldDistance: number; fingerprint: string; dhash: string }

function caughtBy(rows: Row[], key: 'distance' | 'oldDistance', threshold: number) {
  const perTransform: Record<string, { copies: number; caught: number; rate: number; maxDistance: number }> = {}
  for (const row of rows) {
    const t = (perTransform[row.transform] ??= { copies: 0, caught: 0, rate: 0, maxDistance: 0 })
    t.copies++
    if (row[key] <= threshold) t.caught++
    t.maxDistance = Math.max(t.maxDistance, row[key])
  }
  for (const t of Object.values(perTransform)) t.rate = round(t.caught / t.copies)
  const spec = rows.filter((r) => !STRESS.has(r.transform))
  const caught = spec.filter((r) => r[key] <= threshold).length
  // The wording: rotated, scaled (resized or zoomed), cropped, re-encoded, photographed again.
  const perRequirement: Record<string, { copies: number; caught: number; rate: number }> = {}
  for (const [name, transforms] of Object.entries(REQUIREMENTS)) {
    const rs = spec.filter((r) => transforms.includes(r.transform))
    const c = rs.filter((r) => r[key] <= threshold).length
    perRequirement[name] = { copies: rs.length, caught: c, rate: round(c / rs.length) }
  }
  return { copies: spec.length, caught, rate: round(caught / spec.length), perRequirement, perTransform }
}

async function main() {
  const dir = path.resolve(arg('receipts') ?? path.join(repoRoot, '..', 'shared', 'receipts-dev'))
  const seed = Number(arg('seed') ?? 20260610)
  const files = (await fs.readdir(dir)).filter((f) => IMAGE.test(f)).sort()
  if (files.length < 2) throw new Error(`need at least two receipt images in ${dir}`)
  // One libvips thread: the machine is shared, and the timing should be that of one request.
  sharp.concurrency(1)
  const r = mulberry32(seed)

  const originals: Array<{ file: string; fingerprint: string; dhash: string }> = []
  const rows: Row[] = []
  const times: number[] = []
  const originalTimes: number[] = []
  const timed = async (image: Buffer, log = times) => {
    const t = performance.now()
    const fingerprint = await receiptFingerprint(image)
    log.push(performance.now() - t)
    return fingerprint
  }
  for (const file of files) {
    const buf = await fs.readFile(path.join(dir, file))
    const fingerprint = await timed(buf, originalTimes)
    const dhash = await differenceHash(buf)
    originals.push({ file, fingerprint, dhash })
    for (const copy of await makeCopies(buf, r)) {
      const f = await timed(copy.image)
      const d = await differenceHash(copy.image)
      rows.push({
        file,
        transform: copy.transform,
        params: copy.params,
        distance: fingerprintDistance(f, fingerprint)!,
        oldDistance: hammingDistance(d, dhash),
        fingerprint: f,
        dhash: d,
      })
    }
  }

  // Distinct receipts: pairs of originals, and copies against the other receipts' originals.
  const pairs: Array<{ a: string; b: string; distance: number; oldDistance: number }> = []
  for (let i = 0; i < originals.length; i++) {
    for (let j = i + 1; j < originals.length; j++) {
      const a = originals[i]
      const b = originals[j]
      pairs.push({ a: a.file, b: b.file, distance: fingerprintDistance(a.fingerprint, b.fingerprint)!, oldDistance: hammingDistance(a.dhash, b.dhash) })
    }
  }
  pairs.sort((x, y) => x.distance - y.distance)
  const cross: Array<{ copy: string; transform: string; params: string; other: string; distance: number }> = []
  let crossOldCollisions = 0
  for (const row of rows) {
    if (STRESS.has(row.transform)) continue
    for (const o of originals) {
      if (o.file === row.file) continue
      cross.push({ copy: row.file, transform: row.transform, params: row.params, other: o.file, distance: fingerprintDistance(row.fingerprint, o.fingerprint)! })
      if (hammingDistance(row.dhash, o.dhash) <= NEAR_DUPLICATE_DISTANCE) crossOldCollisions++
    }
  }
  cross.sort((a, b) => a.distance - b.distance)
  const crossCollisions = cross.filter((c) => c.distance <= FINGERPRINT_MAX_DISTANCE)

  const spec = rows.filter((row) => !STRESS.has(row.transform))
  const threshold = FINGERPRINT_MAX_DISTANCE
  const collisions = pairs.filter((p) => p.distance <= threshold)
  const oldCollisions = pairs.filter((p) => p.oldDistance <= NEAR_DUPLICATE_DISTANCE)
  const copyDistances = summary(spec.map((row) => row.distance))
  const distinctDistances = summary(pairs.map((p) => p.distance))
  const worst = (rs: Row[], n: number) =>
    [...rs].sort((a, b) => b.distance - a.distance).slice(0, n).map((row) => ({ file: row.file, transform: row.transform, params: row.params, distance: row.distance, caught: row.distance <= threshold }))
  const timing = (ts: number[]) => {
    const sorted = [...ts].sort((a, b) => a - b)
    return { median: round(percentile(sorted, 0.5), 1), p90: round(percentile(sorted, 0.9), 1), max: round(sorted[sorted.length - 1], 1), count: sorted.length }
  }

  console.log(
    JSON.stringify(
      {
        receipts: files.length,
        dir,
        seed,
        fingerprint: { version: FINGERPRINT_VERSION, bits: FINGERPRINT_BITS, threshold, thresholdFraction: round(threshold / FINGERPRINT_BITS, 3) },
        copies: { total: rows.length, inSpec: spec.length, stress: rows.length - spec.length },
        caught: caughtBy(rows, 'distance', threshold),
        worstMisses: worst(spec.filter((row) => row.distance > threshold), 10),
        worstCopies: worst(spec, 5),
        worstStressMisses: worst(rows.filter((row) => STRESS.has(row.transform) && row.distance > threshold), 5),
        distinct: {
          pairs: pairs.length,
          collisions: collisions.length,
          rate: round(collisions.length / pairs.length, 5),
          collidingPairs: collisions.map((p) => ({ a: p.a, b: p.b, distance: p.distance })),
          closestPairs: pairs.slice(0, 5).map((p) => ({ a: p.a, b: p.b, distance: p.distance })),
          copyVsOtherReceipt: {
            pairs: cross.length,
            collisions: crossCollisions.length,
            rate: round(crossCollisions.length / cross.length, 6),
            minDistance: cross[0].distance,
            closest: cross.slice(0, 5),
          },
        },
        // The same figures for other tolerances: how the chosen one trades catches against collisions.
        thresholdSweep: [32, 36, 40, 42, 44, 48, 52, 56, 60].map((t) => ({
          threshold: t,
          caught: round(spec.filter((row) => row.distance <= t).length / spec.length),
          distinctCollisions: pairs.filter((p) => p.distance <= t).length,
          copyVsOtherCollisions: cross.filter((c) => c.distance <= t).length,
        })),
        distances: {
          copy: copyDistances,
          distinct: distinctDistances,
          maxCopy: copyDistances.max,
          minDistinct: distinctDistances.min,
          marginBelowMinDistinct: distinctDistances.min - threshold,
          marginAboveCopyP995: threshold - copyDistances.p995,
        },
        // Wall time of receiptFingerprint on one libvips thread (sharp.concurrency(1)): the receipt
        // set as uploaded, and the copies (bigger PNGs among them: PNG has no shrink-on-load).
        msPerFingerprint: { receipts: timing(originalTimes), copies: timing(times) },
        oldDHash: {
          bits: 64,
          threshold: NEAR_DUPLICATE_DISTANCE,
          caught: caughtBy(rows, 'oldDistance', NEAR_DUPLICATE_DISTANCE),
          distinct: {
            pairs: pairs.length,
            collisions: oldCollisions.length,
            rate: round(oldCollisions.length / pairs.length, 5),
            copyVsOtherReceipt: { pairs: cross.length, collisions: crossOldCollisions, rate: round(crossOldCollisions / cross.length, 6) },
          },
          distances: { copy: summary(spec.map((row) => row.oldDistance)), distinct: summary(pairs.map((p) => p.oldDistance)) },
        },
      },
      null,
      2,
    ),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

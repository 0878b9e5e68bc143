// Pure (no sharp, no Node): grey-level histograms, Otsu's threshold and the flat-colour share, shared by the server's
// preprocessing and layout (grey.server.ts) and the capture check that also runs in the browser
// (app/ocr/capture-quality.ts).

/** Count of each grey level 0..255. */
export function histogram(data: ArrayLike<number>): Uint32Array {
  const h = new Uint32Array(256)
  for (let i = 0; i < data.length; i++) h[data[i]]++
  return h
}

/** Otsu's threshold: the grey level that best splits the histogram in two (paper from ink). */
export function otsu(h: ArrayLike<number>): number {
  let total = 0
  let sum = 0
  for (let i = 0; i < 256; i++) {
    total += h[i]
    sum += i * h[i]
  }
  let sumB = 0
  let wB = 0
  let best = 0
  let threshold = 127
  for (let t = 0; t < 256; t++) {
    wB += h[t]
    if (wB === 0) continue
    const wF = total - wB
    if (wF === 0) break
    sumB += t * h[t]
    const mB = sumB / wB
    const mF = (sum - sumB) / wF
    const between = wB * wF * (mB - mF) * (mB - mF)
    if (between > best) {
      best = between
      threshold = t
    }
  }
  return threshold
}

/**
 * Share of the pixels in the three commonest grey levels, from a histogram (`total` pixels): how
 * nearly a picture is drawn in a few flat colours, as a screenshot is. The capture check's and
 * preprocessing's test for a screenshot.
 */
export function flatShare(counts: ArrayLike<number>, total: number): number {
  if (total === 0) return 0
  let first = 0
  let second = 0
  let third = 0
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]
    if (c > first) [first, second, third] = [c, first, second]
    else if (c > second) [second, third] = [c, second]
    else if (c > third) third = c
  }
  return (first + second + third) / total
}

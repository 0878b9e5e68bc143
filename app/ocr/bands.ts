/**
 * Pure: a long page cut into bands of text (issue 37). A long screenshot (1290 x 7800) is read in
 * pieces no taller than a reader handles at a useful text size, and its blank stretches are not
 * read at all. Rows are given as ink flags (1: the row holds ink).
 *
 * Each band is cut out of [start, end); a reading of it keeps only what lies in [ownStart, ownEnd),
 * so that a line in the overlap of two pieces of one dense block is kept once.
 */
export type Band = { start: number; end: number; ownStart: number; ownEnd: number }

export type BandOptions = {
  /** The tallest band, in rows. */
  maxHeight: number
  /** A blank stretch at least this tall separates two blocks (shorter ones are part of a block). */
  minGap: number
  /** Rows kept around a block's ink (a line's antialiased edge). */
  margin: number
  /** Rows two pieces of one block taller than maxHeight share, so that no line is only cut. */
  overlap: number
}

/** The blocks of ink: runs of rows with ink, joined across blank stretches shorter than minGap. */
export function inkBlocks(ink: ArrayLike<number>, minGap: number): Array<{ start: number; end: number }> {
  const blocks: Array<{ start: number; end: number }> = []
  let current: { start: number; end: number } | null = null
  for (let y = 0; y < ink.length; y++) {
    if (!ink[y]) continue
    if (current && y - current.end < minGap) current.end = y + 1
    else {
      current = { start: y, end: y + 1 }
      blocks.push(current)
    }
  }
  return blocks
}

/**
 * Bands covering every row with ink: blocks packed in order into bands at most maxHeight tall (the
 * blank stretches between blocks packed together are kept, they are short), a block taller than
 * maxHeight cut into overlapping pieces.
 */
export function bandsOf(ink: ArrayLike<number>, o: BandOptions): Band[] {
  const height = ink.length
  const blocks = inkBlocks(ink, o.minGap).map((b) => ({ start: Math.max(0, b.start - o.margin), end: Math.min(height, b.end + o.margin) }))
  const bands: Band[] = []
  const step = Math.max(1, o.maxHeight - o.overlap)
  for (const block of blocks) {
    const last = bands[bands.length - 1]
    // Packed with the previous band when both fit: fewer, fuller bands.
    if (last && last.end - last.start < o.maxHeight && block.end - last.start <= o.maxHeight && last.ownEnd === last.end) {
      last.end = block.end
      last.ownEnd = block.end
      continue
    }
    if (block.end - block.start <= o.maxHeight) {
      bands.push({ start: block.start, end: block.end, ownStart: block.start, ownEnd: block.end })
      continue
    }
    for (let start = block.start; start < block.end; start += step) {
      const end = Math.min(block.end, start + o.maxHeight)
      // Each piece owns its rows up to the middle of the overlap with the next.
      const ownStart = start === block.start ? start : start + Math.floor(o.overlap / 2)
      const ownEnd = end === block.end ? end : end - Math.ceil(o.overlap / 2)
      bands.push({ start, end, ownStart, ownEnd })
      if (end === block.end) break
    }
  }
  return bands
}

/**
 * Ink flags of raw pixels (`channels` per pixel, the first three averaged): a row holds ink when more
 * than `share` of its pixels are far (> 60 levels) from the row's commonest level. Panels, banners and
 * page colour are blank rows; text on them is not.
 */
export function inkRows(data: ArrayLike<number>, width: number, height: number, channels: number, share = 0.002): Uint8Array {
  const flags = new Uint8Array(height)
  const counts = new Uint32Array(256)
  const levels = new Uint8Array(width)
  const needed = Math.max(1, Math.floor(width * share))
  for (let y = 0; y < height; y++) {
    counts.fill(0)
    const row = y * width * channels
    for (let x = 0; x < width; x++) {
      const i = row + x * channels
      const v = channels >= 3 ? ((data[i] + data[i + 1] + data[i + 2]) / 3) | 0 : data[i]
      levels[x] = v
      counts[v]++
    }
    let common = 0
    for (let v = 1; v < 256; v++) if (counts[v] > counts[common]) common = v
    let far = 0
    for (let x = 0; x < width && far < needed; x++) if (Math.abs(levels[x] - common) > 60) far++
    flags[y] = far >= needed ? 1 : 0
  }
  return flags
}

/**
 * Contiguous pieces covering every row, each at most maxHeight, cut at a blank row (the last one in
 * the piece's second half) where there is one: a long page read a piece at a time, no line cut in two
 * and none read twice.
 */
export function cutAtBlankRows(ink: ArrayLike<number>, maxHeight: number): Array<{ start: number; end: number }> {
  const pieces: Array<{ start: number; end: number }> = []
  let start = 0
  while (start < ink.length) {
    let end = Math.min(ink.length, start + maxHeight)
    if (end < ink.length) {
      let cut = end
      while (cut > start + maxHeight / 2 && ink[cut]) cut--
      if (!ink[cut]) end = cut
    }
    pieces.push({ start, end })
    start = end
  }
  return pieces
}

/**
 * A long page's pieces for reading: the last `footerHeight` rows or fewer (cut at a blank row) on
 * their own, for the footer that may be the only place the brand is printed, and the rest cut at
 * blank rows into pieces of at most maxHeight.
 */
export function pagePieces(ink: ArrayLike<number>, maxHeight: number, footerHeight: number): Array<{ start: number; end: number }> {
  let footer = Math.max(0, ink.length - footerHeight)
  while (footer < ink.length && ink[footer]) footer++
  if (footer <= 0 || footer >= ink.length) return cutAtBlankRows(ink, maxHeight)
  const body = cutAtBlankRows(Array.prototype.slice.call(ink, 0, footer) as number[], maxHeight)
  return [...body, { start: footer, end: ink.length }]
}

import sharp from 'sharp'

/**
 * 64-bit difference hash: robust to re-compression and small crops, so a re-photographed or
 * re-saved receipt is caught as a near-duplicate (decision 005) where the byte hash differs.
 */
export async function differenceHash(image: Buffer): Promise<string> {
  const { data } = await sharp(image, { limitInputPixels: 50_000_000 })
    .rotate()
    .greyscale()
    .resize(9, 8, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true })
  let bits = ''
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) bits += data[y * 9 + x] > data[y * 9 + x + 1] ? '1' : '0'
  }
  return BigInt(`0b${bits}`).toString(16).padStart(16, '0')
}

export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`)
  let n = 0
  while (x) {
    n += Number(x & 1n)
    x >>= 1n
  }
  return n
}

export const NEAR_DUPLICATE_DISTANCE = 5

/** Two stored photo fingerprints belong to the same receipt photo. */
export function fingerprintsMatch(a: string, b: string): boolean {
  if (!/^[0-9a-f]{16}$/.test(a) || !/^[0-9a-f]{16}$/.test(b)) return false
  return hammingDistance(a, b) <= NEAR_DUPLICATE_DISTANCE
}

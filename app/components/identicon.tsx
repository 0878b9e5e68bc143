/** A 5x5 mirrored identicon derived from the wallet address: same address, same picture. */
export function Identicon({ address, size = 64 }: { address: string; size?: number }) {
  const hex = address.toLowerCase().replace(/^0x/, '').padEnd(40, '0')
  const hue = parseInt(hex.slice(0, 4), 16) % 360
  const cells: { x: number; y: number }[] = []
  for (let y = 0; y < 5; y++) {
    for (let x = 0; x < 3; x++) {
      const nibble = parseInt(hex[4 + y * 3 + x], 16)
      if (nibble % 2 === 0) {
        cells.push({ x, y })
        if (x < 2) cells.push({ x: 4 - x, y })
      }
    }
  }
  return (
    <svg width={size} height={size} viewBox="0 0 5 5" role="img" aria-label="Wallet avatar" style={{ borderRadius: 12, background: `hsl(${hue} 60% 94%)` }}>
      {cells.map((c) => (
        <rect key={`${c.x}-${c.y}`} x={c.x} y={c.y} width="1" height="1" fill={`hsl(${hue} 55% 42%)`} />
      ))}
    </svg>
  )
}

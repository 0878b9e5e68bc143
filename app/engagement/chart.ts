// Geometry of the rewards page's "B3TR earned per day" bar chart, rendered on the server as SVG
// (no chart library, no JavaScript needed). Pure: points in, rectangles out.
import { MILLI_PER_B3TR } from '~/rewards/money'

export interface ChartPoint {
  /** 'YYYY-MM-DD' (UTC). */
  day: string
  milli: number
}

export interface ChartBar extends ChartPoint {
  x: number
  y: number
  width: number
  height: number
}

export interface DailyChart {
  width: number
  height: number
  /** Plot area inside the axes. */
  plot: { left: number; top: number; right: number; bottom: number }
  bars: ChartBar[]
  /** Top of the y axis in whole B3TR (a "nice" number: 1, 2, 5 x 10^n), at least 1. */
  maxB3tr: number
  /** Y-axis labels: 0, half and the top, with their y position. */
  ticks: Array<{ value: number; y: number }>
  totalMilli: number
}

/** The smallest of 1, 2, 5, 10, 20, 50, ... that is >= n (and >= 1). */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1
  let scale = 1
  while (scale * 10 < n) scale *= 10
  for (const step of [1, 2, 5, 10]) {
    if (step * scale >= n) return step * scale
  }
  return 10 * scale
}

export function buildDailyChart(
  points: readonly ChartPoint[],
  { width = 320, height = 160, left = 28, bottom = 20, top = 8, right = 4 } = {},
): DailyChart {
  const plot = { left, top, right: width - right, bottom: height - bottom }
  const plotWidth = plot.right - plot.left
  const plotHeight = plot.bottom - plot.top
  const positive = points.map((p) => Math.max(0, p.milli))
  const maxB3tr = niceCeiling(Math.max(0, ...positive) / MILLI_PER_B3TR)
  const maxMilli = maxB3tr * MILLI_PER_B3TR
  const slot = points.length > 0 ? plotWidth / points.length : plotWidth
  // A gap between bars while they are wide enough to show one.
  const gap = slot >= 6 ? Math.min(4, slot * 0.25) : 0
  const round = (n: number) => Math.round(n * 100) / 100
  const bars = points.map((p, i) => {
    const h = (Math.max(0, p.milli) / maxMilli) * plotHeight
    return {
      ...p,
      x: round(plot.left + i * slot + gap / 2),
      y: round(plot.bottom - h),
      width: round(Math.max(0.5, slot - gap)),
      height: round(h),
    }
  })
  const ticks = [0, maxB3tr / 2, maxB3tr].map((value) => ({
    value,
    y: round(plot.bottom - (value / maxB3tr) * plotHeight),
  }))
  return { width, height, plot, bars, maxB3tr, ticks, totalMilli: points.reduce((s, p) => s + p.milli, 0) }
}

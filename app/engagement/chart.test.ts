import { describe, expect, it } from 'vitest'
import { buildDailyChart, niceCeiling } from './chart'

describe('niceCeiling', () => {
  it.each([
    [0, 1],
    [-4, 1],
    [0.4, 1],
    [1, 1],
    [1.2, 2],
    [2, 2],
    [3, 5],
    [5, 5],
    [6, 10],
    [10, 10],
    [11, 20],
    [27, 50],
    [51, 100],
    [180, 200],
    [999, 1000],
  ])('%s -> %s', (n, expected) => {
    expect(niceCeiling(n)).toBe(expected)
  })
})

describe('buildDailyChart', () => {
  const points = [
    { day: '2025-01-01', milli: 0 },
    { day: '2025-01-02', milli: 18_000 },
    { day: '2025-01-03', milli: 9_000 },
    { day: '2025-01-04', milli: -3_000 },
  ]
  const chart = buildDailyChart(points, { width: 100, height: 60, left: 0, right: 0, top: 0, bottom: 20 })

  it('scales to a nice maximum and keeps one bar per day in order', () => {
    expect(chart.maxB3tr).toBe(20)
    expect(chart.bars.map((b) => b.day)).toEqual(points.map((p) => p.day))
    expect(chart.totalMilli).toBe(24_000)
  })

  it('draws bar heights proportional to the amount, from the baseline', () => {
    // plot height 40; 18 of 20 -> 36, 9 of 20 -> 18; zero and negative days are flat.
    expect(chart.bars.map((b) => b.height)).toEqual([0, 36, 18, 0])
    for (const bar of chart.bars) expect(bar.y + bar.height).toBe(40)
  })

  it('lays bars out left to right inside the plot', () => {
    const xs = chart.bars.map((b) => b.x)
    expect(xs).toEqual([...xs].sort((a, b) => a - b))
    for (const bar of chart.bars) {
      expect(bar.x).toBeGreaterThanOrEqual(0)
      expect(bar.x + bar.width).toBeLessThanOrEqual(100)
    }
  })

  it('labels 0, half and the top of the axis', () => {
    expect(chart.ticks).toEqual([
      { value: 0, y: 40 },
      { value: 10, y: 20 },
      { value: 20, y: 0 },
    ])
  })

  it('handles an empty period and 90 narrow days', () => {
    expect(buildDailyChart([]).bars).toEqual([])
    expect(buildDailyChart([]).maxB3tr).toBe(1)
    const many = buildDailyChart(Array.from({ length: 90 }, (_, i) => ({ day: `d${i}`, milli: i * 100 })))
    expect(many.bars).toHaveLength(90)
    for (const bar of many.bars) expect(bar.width).toBeGreaterThan(0)
  })
})

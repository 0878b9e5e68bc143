import { buildDailyChart, type ChartPoint } from '~/engagement/chart'
import { formatB3tr } from '~/rewards/money'

function shortDay(day: string) {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

/** B3TR earned per day as server-rendered SVG bars (no chart library, no JavaScript needed). */
export function EarningsChart({ points, periodLabel }: { points: ChartPoint[]; periodLabel: string }) {
  const chart = buildDailyChart(points)
  const best = points.reduce<ChartPoint | null>((top, p) => (top === null || p.milli > top.milli ? p : top), null)
  const summary =
    chart.totalMilli > 0 && best
      ? `B3TR earned per day over the last ${periodLabel}: ${formatB3tr(chart.totalMilli)} B3TR in total, most on ${shortDay(best.day)} (${formatB3tr(best.milli)} B3TR).`
      : `No B3TR earned in the last ${periodLabel}.`
  const first = points[0]
  const last = points[points.length - 1]
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        role="img"
        aria-label={summary}
        data-testid="earnings-chart"
        preserveAspectRatio="xMidYMid meet"
      >
        {chart.ticks.map((t) => (
          <g key={t.value}>
            <line className="axis" x1={chart.plot.left} x2={chart.plot.right} y1={t.y} y2={t.y} />
            <text x={chart.plot.left - 4} y={t.y + 3} textAnchor="end">
              {t.value}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) =>
          bar.height > 0 ? (
            <rect key={bar.day} className="bar" x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx={Math.min(2, bar.width / 2)}>
              <title>{`${shortDay(bar.day)}: ${formatB3tr(bar.milli)} B3TR`}</title>
            </rect>
          ) : null,
        )}
        {first ? (
          <text x={chart.plot.left} y={chart.height - 6} textAnchor="start">
            {shortDay(first.day)}
          </text>
        ) : null}
        {last ? (
          <text x={chart.plot.right} y={chart.height - 6} textAnchor="end">
            {shortDay(last.day)}
          </text>
        ) : null}
      </svg>
      <figcaption className="small muted">{summary}</figcaption>
    </figure>
  )
}

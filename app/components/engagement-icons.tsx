import type { SVGProps } from 'react'
import { Icon, type IconName } from './icons'

// Icons the achievement and badge definitions name that the shared set lacks (same 24x24 stroke style).
const extra = {
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v5M16 3v5',
  cloud: 'M7 18h10a4 4 0 0 0 .5-7.97A6 6 0 0 0 6.1 9.5 4.25 4.25 0 0 0 7 18z',
  gem: 'M6 3h12l4 6-10 12L2 9zM2 9h20M9 3l3 18M15 3l-3 18',
  footprints: 'M7 4c1.7 0 3 2 3 4.5S9 13 7.5 13 5 11 5 8.5 5.3 4 7 4zM6 15h3v2a1.5 1.5 0 0 1-3 0zM17 8c1.7 0 2 3 2 5s-1 4.5-2.5 4.5S14 16 14 13.5 15.3 8 17 8zM15 19h3v.5a1.5 1.5 0 0 1-3 0z',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-5-5',
  clock: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM12 7v5l3 2',
  chart: 'M4 20V4M4 20h16M8 16v-5M12 16V8M16 16v-8',
  tree: 'M12 3l6 8h-3l4 6H5l4-6H6zM12 17v4',
  alert: 'M12 3l10 18H2zM12 10v5M12 18h.01',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
} as const

export type EngagementIconName = keyof typeof extra | IconName

/** The shared icon set plus the engagement extras; decorative unless a title is given. */
export function EngagementIcon({ name, title, ...props }: { name: string; title?: string } & SVGProps<SVGSVGElement>) {
  if (!Object.hasOwn(extra, name)) {
    return <Icon name={SHARED.has(name) ? (name as IconName) : 'trophy'} title={title} {...props} />
  }
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? 'img' : undefined}
      focusable="false"
      {...props}
    >
      {title ? <title>{title}</title> : null}
      <path d={extra[name as keyof typeof extra]} />
    </svg>
  )
}

// Names of the shared set (icons.tsx) this file relies on; anything else falls back to a trophy.
const SHARED = new Set<string>(['trophy', 'coins', 'flame', 'leaf', 'wallet', 'users', 'check', 'lock', 'receipt', 'store', 'share', 'globe', 'download', 'x', 'arrowLeft'])

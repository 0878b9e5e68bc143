import type { SVGProps } from 'react'

/** Small inline icon set (stroke icons, 24x24), decorative unless a title is given. */
const paths = {
  home: 'M3 11l9-8 9 8M5 10v10h5v-6h4v6h5V10',
  camera: 'M4 8h3l2-3h6l2 3h3v11H4zM12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  trophy: 'M8 4h8v5a4 4 0 0 1-8 0zM8 6H4a3 3 0 0 0 4 4M16 6h4a3 3 0 0 1-4 4M12 13v4M8 21h8M9 17h6v4H9z',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0',
  coins: 'M12 4c4.4 0 8 1.3 8 3s-3.6 3-8 3-8-1.3-8-3 3.6-3 8-3zM4 7v5c0 1.7 3.6 3 8 3s8-1.3 8-3V7M4 12v5c0 1.7 3.6 3 8 3s8-1.3 8-3v-5',
  flame: 'M12 3c1 3 4 5 4 9a4 4 0 0 1-8 0c0-2 1-3 2-4 0 2 1 3 2 3 0-3-1-5 0-8z',
  leaf: 'M5 19c8 0 14-6 14-15-9 0-15 6-15 14zM5 19l7-7',
  wallet: 'M3 7h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H3zM3 7l13-3v3M16 13h2',
  car: 'M5 16l1.5-5h11L19 16M4 16h16v3H4zM7 19v2M17 19v2',
  bus: 'M5 4h14v13H5zM5 11h14M8 20v-3M16 20v-3M8 14h.01M16 14h.01',
  bolt: 'M13 2L4 14h7l-1 8 9-12h-7z',
  scooter: 'M5 18a2 2 0 1 0 0 .01M19 18a2 2 0 1 0 0 .01M7 18h10l-3-12h3',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3a4 4 0 0 1 0 8M22 21a7 7 0 0 0-5-6.7',
  check: 'M5 12l5 5 9-10',
  lock: 'M6 11h12v10H6zM8 11V8a4 4 0 0 1 8 0v3',
  arrowLeft: 'M19 12H5M11 6l-6 6 6 6',
  help: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.7v.5M12 17h.01',
  message: 'M4 5h16v11H8l-4 4z',
  mail: 'M3 6h18v12H3zM3 6l9 7 9-7',
  receipt: 'M6 3h12v18l-3-2-3 2-3-2-3 2zM9 8h6M9 12h6',
  store: 'M4 9l2-5h12l2 5M4 9v11h16V9M4 9h16M9 20v-6h6v6',
  share: 'M18 8a3 3 0 1 0 0-.01M6 15a3 3 0 1 0 0-.01M18 22a3 3 0 1 0 0-.01M8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  globe: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20zM2 12h20M12 2a15 15 0 0 1 0 20M12 2a15 15 0 0 0 0 20',
  download: 'M12 3v12M7 10l5 5 5-5M4 21h16',
  plus: 'M12 5v14M5 12h14',
  x: 'M6 6l12 12M18 6L6 18',
  logout: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10',
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
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9h.01',
  // Share targets, drawn as outlines like the rest of the set (no brand fonts or glyphs needed).
  xLogo: 'M4 4h4.5L20 20h-4.5zM20 4l-6.6 7.3M4 20l6.6-7.3',
  facebook: 'M6 3h12a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3zM16 7.5h-1.5A2.5 2.5 0 0 0 12 10v11M9 13h6',
  instagram: 'M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4zM12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM17.5 6.5h.01',
  whatsapp: 'M3.5 20.5l1.3-4.2A8.5 8.5 0 1 1 8 19.3zM9 8.5c.2 3.2 3 6.2 6.5 6.5l1.2-1.6-2.1-1.1-.9.9a5 5 0 0 1-2.4-2.4l.9-.9-1.1-2.1z',
} as const

export type IconName = keyof typeof paths

export function isIconName(name: string): name is IconName {
  return Object.hasOwn(paths, name)
}

export function Icon({ name, title, ...props }: { name: IconName; title?: string } & SVGProps<SVGSVGElement>) {
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
      <path d={paths[name]} />
    </svg>
  )
}

export function LogoMark({ className = 'brand-mark' }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" className={className} aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="22" fill="#178a5e" />
      <path d="M14 30c0-9 7-16 20-16-1 12-8 19-17 19" fill="#e3f6ec" />
      <path d="M14 34l12-12" stroke="#0b3d2e" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  )
}

import { useId } from 'react'
import { LogoMark } from './icons'

/** The logo variants and sizes of spec 2 (logo showcase), built on the app's own mark. */
export const LOGO_VARIANTS = ['original', 'integrated', 'earth-gradient', 'earth-solid'] as const
export type LogoVariant = (typeof LOGO_VARIANTS)[number]
export const LOGO_SIZES = { sm: 32, md: 64, lg: 128 } as const
export type LogoSize = keyof typeof LOGO_SIZES

export const LOGO_VARIANT_LABELS: Record<LogoVariant, string> = {
  original: 'Original',
  integrated: 'Integrated',
  'earth-gradient': 'Earth gradient',
  'earth-solid': 'Earth solid',
}

/** The leaf of the mark over a globe: meridian and parallels instead of the plain disc. */
function EarthMark({ px, gradient }: { px: number; gradient: boolean }) {
  const id = useId().replace(/:/g, '')
  const fill = gradient ? `url(#earth-${id})` : '#178a5e'
  return (
    <svg viewBox="0 0 48 48" width={px} height={px} aria-hidden="true" focusable="false">
      {gradient ? (
        <defs>
          <linearGradient id={`earth-${id}`} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#1fa86f" />
            <stop offset="0.55" stopColor="#13684a" />
            <stop offset="1" stopColor="#2563eb" />
          </linearGradient>
        </defs>
      ) : null}
      <circle cx="24" cy="24" r="22" fill={fill} />
      <g fill="none" stroke="#e3f6ec" strokeOpacity="0.35" strokeWidth="1.2">
        <ellipse cx="24" cy="24" rx="9" ry="22" />
        <path d="M2 24h44M6 13h36M6 35h36" />
      </g>
      <path d="M14 30c0-9 7-16 20-16-1 12-8 19-17 19" fill="#e3f6ec" />
      <path d="M14 34l12-12" stroke="#0b3d2e" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  )
}

export function Logo({ variant = 'original', size = 'md' }: { variant?: LogoVariant; size?: LogoSize }) {
  const px = LOGO_SIZES[size]
  const label = `ReCircle logo, ${LOGO_VARIANT_LABELS[variant].toLowerCase()}, ${size}`
  if (variant === 'integrated') {
    return (
      <span className="logo-wordmark" role="img" aria-label={label} style={{ fontSize: px * 0.45 }}>
        <span style={{ width: px, height: px, display: 'inline-flex' }}>
          <LogoMark className="logo-fill" />
        </span>
        <span aria-hidden="true">ReCircle</span>
      </span>
    )
  }
  return (
    <span role="img" aria-label={label} style={{ width: px, height: px, display: 'inline-flex' }}>
      {variant === 'original' ? <LogoMark className="logo-fill" /> : <EarthMark px={px} gradient={variant === 'earth-gradient'} />}
    </span>
  )
}

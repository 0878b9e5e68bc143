import type { LinksFunction, MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Logo, LOGO_SIZES, LOGO_VARIANT_LABELS, LOGO_VARIANTS, type LogoSize } from '~/components/logo'
import styles from '~/styles/debug.css'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: styles }]
export const meta: MetaFunction = () => [{ title: 'Logo Showcase · ReCircle' }]

const SIZES = Object.keys(LOGO_SIZES) as LogoSize[]

/** Public and static: the logo variants and sizes (spec 2 §2). */
export default function LogoShowcase() {
  return (
    <div className="stack">
      <Link to="/" className="back-link">
        ← Back to Home
      </Link>
      <h1>Logo Showcase</h1>
      <section className="card stack" aria-labelledby="variants-title">
        <h2 id="variants-title">Variants</h2>
        <div className="logo-grid">
          {LOGO_VARIANTS.map((variant) => (
            <figure key={variant} className="logo-sample" style={{ margin: 0 }}>
              <Logo variant={variant} size="md" />
              <figcaption className="small">{LOGO_VARIANT_LABELS[variant]}</figcaption>
            </figure>
          ))}
        </div>
      </section>
      {LOGO_VARIANTS.map((variant) => (
        <section key={variant} className="card stack" aria-labelledby={`sizes-${variant}`}>
          <h2 id={`sizes-${variant}`}>{LOGO_VARIANT_LABELS[variant]}: sizes</h2>
          <div className="logo-sizes">
            {SIZES.map((size) => (
              <figure key={size} className="logo-sample" style={{ margin: 0 }}>
                <Logo variant={variant} size={size} />
                <figcaption className="small muted">
                  {size} · {LOGO_SIZES[size]} px
                </figcaption>
              </figure>
            ))}
          </div>
        </section>
      ))}
    </div>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}

import { useEffect, useMemo, useState } from 'react'
import { Icon, LogoMark } from './icons'

const COLORS = ['#1fa86f', '#f59e0b', '#2563eb', '#ef4444', '#a855f7', '#e3f6ec']

export function Confetti({ count = 150 }: { count?: number }) {
  const pieces = useMemo(
    () =>
      Array.from({ length: count }, (_, i) => ({
        left: Math.random() * 100,
        dx: `${(Math.random() - 0.5) * 200}px`,
        delay: Math.random() * 0.6,
        duration: 2 + Math.random() * 1.5,
        color: COLORS[i % COLORS.length],
      })),
    [count],
  )
  return (
    <div className="confetti" aria-hidden="true">
      {pieces.map((p, i) => (
        <i
          key={i}
          style={
            {
              left: `${p.left}%`,
              background: p.color,
              animationDelay: `${p.delay}s`,
              animationDuration: `${p.duration}s`,
              '--dx': p.dx,
            } as React.CSSProperties
          }
        />
      ))}
    </div>
  )
}

/**
 * Wallet-connected celebration (spec 1 §2): check mark; after 1.5 s confetti (150) with the title;
 * 3 s later it ends; 1 s after that it completes.
 */
export function WalletCelebration({ onComplete }: { onComplete: () => void }) {
  const [phase, setPhase] = useState<'check' | 'confetti' | 'ending'>('check')
  useEffect(() => {
    const t1 = setTimeout(() => setPhase('confetti'), 1500)
    const t2 = setTimeout(() => setPhase('ending'), 4500)
    const t3 = setTimeout(onComplete, 5500)
    return () => [t1, t2, t3].forEach(clearTimeout)
  }, [onComplete])
  return (
    <div
      className={`overlay ${phase === 'ending' ? 'fade-out' : ''}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby="celebration-title"
      onClick={onComplete}
    >
      {phase !== 'check' ? <Confetti /> : null}
      <div>
        <LogoMark className="mascot" />
        <div className="check">
          <Icon name="check" width={56} height={56} />
        </div>
        {/* The title shows with the confetti (spec 1 §2); until then it only names the dialog. */}
        <h2 id="celebration-title" className={phase === 'check' ? 'sr-only' : undefined}>
          Wallet Connected!
        </h2>
        {phase !== 'check' ? <p>Ready to earn B3TR tokens</p> : null}
        <button type="button" className="btn light" onClick={onComplete}>
          Let's go!
        </button>
      </div>
    </div>
  )
}

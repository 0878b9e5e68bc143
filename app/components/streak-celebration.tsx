import { useEffect, useState } from 'react'
import { multiplierPercent, nextStreakMilestone, streakMultiplier as streakMultiplierFor } from '~/rewards/streaks'
import { Confetti } from './celebration'
import { Icon } from './icons'
import { holdToasts } from './toaster'

/**
 * Streak celebration (spec 1 §2): flame; after 1.5 s confetti with the number, 'N Day Streak!';
 * 3 s later complete; 1 s later it calls onComplete. The bonus it names is `streakMultiplier`, the
 * one the receipt's reward applied (by default the rules' multiplier for the streak), and toasts
 * wait until it closes.
 */
export function StreakCelebration({
  streak,
  streakMultiplier = streakMultiplierFor(streak),
  onComplete,
}: {
  streak: number
  streakMultiplier?: number
  onComplete: () => void
}) {
  const [phase, setPhase] = useState<'flame' | 'confetti' | 'complete'>('flame')
  useEffect(() => holdToasts(), [])
  useEffect(() => {
    const t1 = setTimeout(() => setPhase('confetti'), 1500)
    const t2 = setTimeout(() => setPhase('complete'), 4500)
    const t3 = setTimeout(onComplete, 5500)
    return () => [t1, t2, t3].forEach(clearTimeout)
  }, [onComplete])
  return (
    <div className={`overlay streak-overlay ${phase === 'complete' ? 'fade-out' : ''}`} role="dialog" aria-modal="true" aria-labelledby="streak-title">
      {phase !== 'flame' ? <Confetti /> : null}
      <div>
        <div className="flame">
          <Icon name="flame" width={64} height={64} />
        </div>
        {phase !== 'flame' ? <div className="streak-number">{streak}</div> : null}
        <h2 id="streak-title">{streak} Day Streak!</h2>
        <p>Keep it up for more rewards!</p>
        <div className="bonus-banner" data-testid="streak-bonus">
          +{multiplierPercent(streakMultiplier)}% streak bonus (×{streakMultiplier})
        </div>
        <p className="small">Next streak milestone: {nextStreakMilestone(streak)} days</p>
        <p style={{ fontWeight: 800 }}>You're on fire!</p>
        <button type="button" className="btn light" onClick={onComplete}>
          Continue
        </button>
      </div>
    </div>
  )
}

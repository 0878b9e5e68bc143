import { useEffect, useState } from 'react'
import { nextStreakMilestone, streakBonusPercent } from '~/rewards/rules'
import { Confetti } from './celebration'

/**
 * Streak celebration (spec 1 §2): flame; after 1.5 s confetti with the number, 'N Day Streak!';
 * 3 s later complete; 1 s later it calls onComplete.
 */
export function StreakCelebration({ streak, onComplete }: { streak: number; onComplete: () => void }) {
  const [phase, setPhase] = useState<'flame' | 'confetti' | 'complete'>('flame')
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
        <div className="flame" aria-hidden="true">
          🔥
        </div>
        {phase !== 'flame' ? <div className="streak-number">{streak}</div> : null}
        <h2 id="streak-title">{streak} Day Streak!</h2>
        <p>Keep it up for more rewards!</p>
        <div className="bonus-banner">+{streakBonusPercent(streak)}% streak bonus</div>
        <p className="small">Next streak milestone: {nextStreakMilestone(streak)} days</p>
        <p style={{ fontWeight: 800 }}>You're on fire!</p>
        <button type="button" className="btn light" onClick={onComplete}>
          Continue
        </button>
      </div>
    </div>
  )
}

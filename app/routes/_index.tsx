import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { EngagementIcon } from '~/components/engagement-icons'
import { Icon, LogoMark, type IconName } from '~/components/icons'
import { ACHIEVEMENTS, ACHIEVEMENT_KEYS, type AchievementKey } from '~/engagement/achievements'
import { WalletCard } from '~/components/wallet-card'
import { BASE_REWARD_B3TR, maxReceiptRewardB3tr } from '~/rewards/receipt-reward'
import { MAX_STREAK_MULTIPLIER } from '~/rewards/streaks'
import { B3TR_EXPLAINED, SECOND_HAND_RULE } from '~/rewards/earning-rule'
import { wholeB3trText } from '~/rewards/money'
import { useOptionalUser } from '~/utils/user'

/** A shared achievement link (`/?achievement=KEY`, share.ts) names the achievement it shows. */
export async function loader({ request }: LoaderFunctionArgs) {
  const key = new URL(request.url).searchParams.get('achievement')
  const shared = key && (ACHIEVEMENT_KEYS as readonly string[]).includes(key) ? ACHIEVEMENTS[key as AchievementKey] : null
  return json({ shared: shared ? { key: shared.key, title: shared.title, description: shared.description, icon: shared.icon } : null })
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.shared ? `${data.shared.title} unlocked · ReCircle` : 'ReCircle: Turn Your Rides Into Rewards' },
]

const GETTING_STARTED = [
  { title: 'Download VeWorld', text: 'Get the VeWorld wallet app or browser extension.' },
  { title: 'Create a wallet', text: 'Set up a VeChain wallet on the test network in a minute.' },
  { title: 'Connect and earn', text: 'Open ReCircle in VeWorld, connect, and start scanning receipts.' },
]

const HOW_EARNING_WORKS: { title: string; text: string; icon: IconName }[] = [
  { title: 'Scan a receipt', text: 'Photograph your rideshare, transit, EV rental or e-scooter receipt.', icon: 'camera' },
  { title: 'Make an impact', text: 'Every trip without a private car keeps CO2 out of the air.', icon: 'leaf' },
  { title: 'Earn B3TR', text: 'We verify the receipt and credit B3TR tokens to your balance.', icon: 'coins' },
]

export default function Landing() {
  const user = useOptionalUser()
  const { shared } = useLoaderData<typeof loader>()
  return (
    <div className="stack">
      {shared ? (
        <section className="card shared-achievement" aria-labelledby="shared-title" data-testid="shared-achievement">
          <span className="action-icon" aria-hidden="true">
            <EngagementIcon name={shared.icon} />
          </span>
          <div>
            <p className="small muted" style={{ margin: 0 }}>
              A friend unlocked an achievement on ReCircle
            </p>
            <h2 id="shared-title" style={{ margin: '0.1rem 0' }}>
              {shared.title}
            </h2>
            <p style={{ margin: 0 }}>{shared.description}</p>
            <p className="small" style={{ margin: '0.4rem 0 0' }}>
              {user ? 'Scan a receipt to earn it too.' : 'Connect a VeChain wallet below, then scan a receipt to earn it too.'}
            </p>
            <Link to={user ? '/scan' : '/connect-wallet'} className="btn" style={{ marginTop: '0.5rem' }}>
              {user ? 'Scan a Receipt' : 'Start Earning'}
            </Link>
          </div>
        </section>
      ) : null}
      {/* Issue 40: the first screen (360 × 640) says how you earn and what B3TR is. */}
      <section className="landing-hero" aria-labelledby="landing-title">
        <LogoMark className="mascot" />
        <h1 id="landing-title">Turn Your Rides Into Rewards</h1>
        <ol className="hero-steps" data-testid="how-you-earn">
          <li>Take a rideshare, transit, EV rental or e-scooter or bike trip.</li>
          <li>Photograph its receipt on Scan, or upload its e-mail.</li>
          <li>
            Earn {wholeB3trText(BASE_REWARD_B3TR)} or more once it is verified, {wholeB3trText(maxReceiptRewardB3tr())} for your first.
          </li>
        </ol>
        <p className="small muted hero-b3tr" data-testid="b3tr-explained">
          {B3TR_EXPLAINED}
        </p>
        <Link to="/home" className="btn block">
          Get Started
        </Link>
      </section>

      <WalletCard user={user} variant="compact" />

      <section className="card" aria-labelledby="getting-started">
        <h2 id="getting-started">Getting Started</h2>
        <ol className="steps">
          {GETTING_STARTED.map((s, i) => (
            <li className="step" key={s.title}>
              <span className="step-num" aria-hidden="true">
                {i + 1}
              </span>
              <div>
                <strong>{s.title}</strong>
                <p className="muted small">{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="card" aria-labelledby="how-earning">
        <h2 id="how-earning">How Earning Works</h2>
        <ol className="steps">
          {HOW_EARNING_WORKS.map((s) => (
            <li className="step" key={s.title}>
              <span className="step-num" aria-hidden="true">
                <Icon name={s.icon} width={18} height={18} />
              </span>
              <div>
                <strong>{s.title}</strong>
                <p className="muted small">{s.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="card" aria-labelledby="supported">
        <h2 id="supported">Supported Transportation</h2>
        <div className="chips">
          <span className="chip">Rideshare</span>
          <span className="chip">Public Transit</span>
          <span className="chip">Electric Vehicles</span>
          <span className="chip">E-Scooters &amp; Bikes</span>
        </div>
      </section>

      <section className="card" aria-labelledby="why">
        <h2 id="why">Why ReCircle?</h2>
        <ul className="checklist">
          <li data-testid="max-reward">Earn up to {wholeB3trText(maxReceiptRewardB3tr())} per receipt</li>
          <li>{wholeB3trText(BASE_REWARD_B3TR)} base for every verified trip, whatever the fare</li>
          <li>{SECOND_HAND_RULE}</li>
          <li>Streak bonuses up to {MAX_STREAK_MULTIPLIER}x for daily sustainable trips</li>
          <li>See the CO2 you keep out of the air</li>
          <li>Your wallet proves who you are: no passwords</li>
        </ul>
      </section>

      <Link to="/home" className="btn block">
        Get Started
      </Link>
    </div>
  )
}

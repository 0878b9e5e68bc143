import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useNavigation,
} from '@remix-run/react'
import { useCallback, useEffect, useState } from 'react'
import { InstallIdKeeper } from '~/components/install-id'
import { getOptionalUser, isAdmin } from '~/auth/auth.server'
import { AchievementToast } from '~/components/achievement-toast'
import { AppFooter } from '~/components/app-footer'
import { AppHeader } from '~/components/app-header'
import { BottomNav } from '~/components/bottom-nav'
import { WalletCelebration } from '~/components/celebration'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Toaster, type ToastInput } from '~/components/toaster'
import { getBalances } from '~/rewards/ledger.server'
import { maturingLine } from '~/rewards/maturing'
import { displayStreak } from '~/users/users.server'
import { getDb } from '~/utils/db.server'
import { getEnv, isTestWalletAllowed } from '~/utils/env.server'
import { isGatedPath } from '~/utils/gated-routes'
import { supportHref } from '~/utils/support'
import { readToast } from '~/utils/toast.server'
import type { RootData } from '~/utils/user'
import styles from '~/styles/app.css'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: styles },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
]

export const meta: MetaFunction = () => [
  { title: 'ReCircle: Turn Your Rides Into Rewards' },
  { name: 'description', content: 'Earn B3TR tokens for sustainable transport: scan a rideshare, transit, EV or e-scooter receipt.' },
  { name: 'theme-color', content: '#178a5e' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request)
  const { toast, setCookie } = await readToast(request)
  const env = getEnv()
  return json<RootData>(
    {
      user: user
        ? {
            id: user.id,
            walletAddress: user.walletAddress,
            currentStreak: displayStreak(user),
            ...(await balanceView(user.id)),
          }
        : null,
      isAdmin: isAdmin(user),
      testMode: env.RECIRCLE_TEST_MODE,
      testWalletAllowed: isTestWalletAllowed(env),
      supportHref: supportHref(env.SUPPORT_EMAIL),
      toast,
    },
    { headers: setCookie ? { 'Set-Cookie': setCookie } : undefined },
  )
}

/** The header's claimable balance and, on Home's wallet card, what is still maturing (issue 38). */
async function balanceView(userId: number) {
  const balances = await getBalances(getDb(), userId)
  return { balanceMilli: balances.claimableMilli, pendingMilli: balances.pendingMilli, maturing: maturingLine(balances.pendingMilli, balances.maturing) }
}

function Document({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  )
}

const CELEBRATION_KEY = 'celebrationShown'

export default function App() {
  const data = useLoaderData<typeof loader>()
  const navigation = useNavigation()
  const location = useLocation()
  const [celebrating, setCelebrating] = useState(false)
  const [initialToast, setInitialToast] = useState<ToastInput | null>(data.toast)

  useEffect(() => {
    const toast = data.toast
    if (toast?.event === 'wallet-connected') {
      // Once per browser session the full-screen celebration replaces the toast.
      if (!sessionStorage.getItem(CELEBRATION_KEY)) {
        sessionStorage.setItem(CELEBRATION_KEY, '1')
        setInitialToast(null)
        setCelebrating(true)
        return
      }
    }
    setInitialToast(toast)
  }, [data.toast])

  const endCelebration = useCallback(() => setCelebrating(false), [])
  const checkingGate =
    navigation.state === 'loading' && !data.user && isGatedPath(navigation.location.pathname)

  return (
    <Document>
      <InstallIdKeeper />
      <div className="app">
        {navigation.state !== 'idle' ? <div className="page-loading" aria-hidden="true" /> : null}
        <AppHeader user={data.user} isAdmin={data.isAdmin}>
          <Toaster initial={initialToast} />
          <AchievementToast />
        </AppHeader>
        <main className="app-main" id="main">
          {checkingGate ? (
            <div className="gate" role="status">
              <span className="spinner" aria-hidden="true" />
              <h1>Checking Wallet Connection</h1>
              <p className="muted">Please wait while we verify your wallet connection...</p>
            </div>
          ) : (
            <Outlet />
          )}
        </main>
        {location.pathname === '/' || location.pathname === '/home' ? <AppFooter /> : null}
        <BottomNav connected={!!data.user} />
      </div>
      {celebrating ? <WalletCelebration onComplete={endCelebration} /> : null}
    </Document>
  )
}

export function ErrorBoundary() {
  return (
    <Document>
      <div className="app">
        <main className="app-main">
          <GeneralErrorBoundary />
        </main>
      </div>
    </Document>
  )
}

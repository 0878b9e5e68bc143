import { useEffect, useState } from 'react'
import { detectWallet, signChallenge, waitForWallet, WALLET_MESSAGES, WalletError } from '~/auth/wallet.client'
import { networkFromGenesisId } from '~/chain/networks'
import { countWalletConnection, logWalletStep } from '~/debug/capture.client'
import { randomNonce, walletTestContent, type WalletTestVerification } from '~/debug/wallet-test'

type StepStatus = 'waiting' | 'running' | 'ok' | 'failed' | 'skipped'
type Step = { name: string; status: StepStatus; detail: string; ms?: number }

const STEP_NAMES = ['Detect the wallet', 'Check the network', 'Connect and sign a test certificate', 'Verify on the server'] as const

const STATUS_LABEL: Record<StepStatus, string> = { waiting: 'Waiting', running: 'Running…', ok: 'OK', failed: 'Failed', skipped: 'Skipped' }
const STATUS_BADGE: Record<StepStatus, string> = { waiting: '', running: 'warn', ok: 'ok', failed: 'bad', skipped: '' }

function initialSteps(): Step[] {
  return STEP_NAMES.map((name) => ({ name, status: 'waiting', detail: '' }))
}

function reportedGenesisId(): string | undefined {
  // VeWorld exposes no genesis id (issue 22); a Connex 1 wallet does.
  return window.connex?.thor?.genesis?.id
}

/**
 * The real connect sequence, one step at a time (wallet.client.ts: detection, network, signing with
 * its error messages), then the server's sign-in checks on the certificate, without signing in.
 */
export function WalletTestPanel() {
  const [hydrated, setHydrated] = useState(false)
  const [steps, setSteps] = useState<Step[]>(initialSteps)
  const [running, setRunning] = useState(false)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [checks, setChecks] = useState<WalletTestVerification['checks']>([])
  useEffect(() => setHydrated(true), [])

  function update(index: number, patch: Partial<Step>) {
    setSteps((current) => current.map((s, i) => (i === index ? { ...s, ...patch } : s)))
  }

  /** Runs one step, timing it; a thrown error fails it and skips the rest. */
  async function step<T>(index: number, run: () => Promise<{ value: T; detail: string }>): Promise<T> {
    update(index, { status: 'running', detail: '' })
    const started = performance.now()
    try {
      const { value, detail } = await run()
      const ms = Math.round(performance.now() - started)
      update(index, { status: 'ok', detail, ms })
      logWalletStep(`${STEP_NAMES[index]}: OK (${ms} ms)`, detail)
      return value
    } catch (error) {
      const ms = Math.round(performance.now() - started)
      const detail = error instanceof Error ? error.message : String(error)
      update(index, { status: 'failed', detail, ms })
      logWalletStep(`${STEP_NAMES[index]}: FAILED (${ms} ms)`, detail)
      setSteps((current) => current.map((s, i) => (i > index ? { ...s, status: 'skipped' } : s)))
      throw error
    }
  }

  async function run() {
    setRunning(true)
    setOutcome(null)
    setChecks([])
    setSteps(initialSteps())
    logWalletStep(`Wallet test started (run ${countWalletConnection()} in this session)`)
    try {
      await step(0, async () => {
        const kind = await waitForWallet(10, 500)
        if (!kind) throw new WalletError(WALLET_MESSAGES.notDetected)
        return { value: kind, detail: kind === 'veworld' ? 'VeWorld (window.vechain)' : 'Connex (window.connex)' }
      })
      await step(1, async () => {
        const genesisId = reportedGenesisId()
        const network = networkFromGenesisId(genesisId)
        if (genesisId && network !== 'testnet') throw new WalletError(`${WALLET_MESSAGES.wrongNetwork} (genesis ${genesisId})`)
        return {
          value: network,
          detail: genesisId ? `testnet (genesis ${genesisId})` : 'The wallet reports no genesis id: it is asked for testnet when signing',
        }
      })
      const certificate = await step(2, async () => {
        const cert = await signChallenge(walletTestContent(randomNonce()))
        return { value: cert, detail: `Signer ${cert.signer.toLowerCase()}, domain ${cert.domain}, timestamp ${cert.timestamp}` }
      })
      await step(3, async () => {
        const res = await fetch('/api/debug/wallet-verify', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ certificate }),
        })
        const body = (await res.json().catch(() => null)) as WalletTestVerification | null
        setChecks(body?.checks ?? [])
        if (!body?.ok) throw new Error(body?.error ?? `The server answered ${res.status}`)
        return { value: body, detail: `HTTP ${res.status}: certificate verified, signed by ${body.signer}` }
      })
      setOutcome({ ok: true, text: 'Wallet test passed: the wallet signs and the server verifies its certificate.' })
    } catch (error) {
      const text = error instanceof Error ? error.message : WALLET_MESSAGES.failed
      setOutcome({ ok: false, text: `Wallet test failed: ${text}` })
    } finally {
      setRunning(false)
    }
  }

  const detected = hydrated ? detectWallet() : null
  return (
    <div className="stack">
      <p className="small muted" style={{ margin: 0 }}>
        Detects the wallet, checks the network, signs a test certificate (it cannot sign anyone in) and has the server run
        the sign-in checks on it. {hydrated ? `Wallet right now: ${detected ?? 'none detected'}.` : null}
      </p>
      <button type="button" className="btn block" onClick={() => void run()} disabled={!hydrated || running} aria-busy={running}>
        {running ? <span className="spinner" aria-hidden="true" /> : null}
        {running ? 'Testing…' : 'Run wallet test'}
      </button>
      {!hydrated ? <p className="small muted">The wallet test runs in the browser and needs JavaScript.</p> : null}
      <ol className="status-list" aria-label="Wallet test steps" aria-live="polite">
        {steps.map((s, i) => (
          <li key={s.name} data-testid={`wallet-step-${i + 1}`} data-status={s.status}>
            <span aria-hidden="true" className={s.status === 'ok' ? 'tick' : 'wait'}>
              {i + 1}
            </span>
            <div>
              <div className="row between wrap">
                <strong>{s.name}</strong>
                <span className={`status-badge ${STATUS_BADGE[s.status]}`}>
                  {STATUS_LABEL[s.status]}
                  {s.ms !== undefined ? ` · ${s.ms} ms` : ''}
                </span>
              </div>
              {s.detail ? <div className="small mono">{s.detail}</div> : null}
            </div>
          </li>
        ))}
      </ol>
      {checks.length ? (
        <ul className="small debug-checks" aria-label="Server checks">
          {checks.map((c) => (
            <li key={c.name}>
              {c.ok ? '✓' : '✗'} {c.name}: {c.detail}
            </li>
          ))}
        </ul>
      ) : null}
      {outcome ? (
        <p className={`alert debug-checks ${outcome.ok ? 'info' : ''}`} role={outcome.ok ? 'status' : 'alert'} data-testid="wallet-test-outcome">
          {outcome.text}
        </p>
      ) : null}
    </div>
  )
}

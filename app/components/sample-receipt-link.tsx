import { useRootData } from '~/utils/user'
import { Icon } from './icons'

/** Issue 11: outside production the scan page offers a sample receipt to try the flow with. */
export function SampleReceiptLink() {
  if (!useRootData()?.testWalletAllowed) return null
  return (
    <p className="small muted" style={{ margin: 0 }}>
      No receipt at hand?{' '}
      <a href="/scan/sample-receipt" download>
        <Icon name="receipt" width={14} height={14} /> Download a sample receipt
      </a>{' '}
      (dated today, for trying ReCircle), then upload it here.
    </p>
  )
}

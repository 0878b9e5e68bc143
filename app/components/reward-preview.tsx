import { formatB3tr, wholeB3trText } from '~/rewards/money'
import type { RewardPreview } from '~/rewards/receipt-reward'

/**
 * The scan form's "what you will earn": the figures come from the server's reward rule
 * (previewReceiptReward), never from the client (decision 100).
 */
export function RewardPreviewCard({ preview }: { preview: RewardPreview }) {
  const { reward, firstReceiptBonusMilli, streak } = preview
  return (
    <section className="reward-preview" aria-labelledby="reward-preview-title">
      <h3 id="reward-preview-title">You will earn</h3>
      <p className="reward-preview-total" data-testid="reward-preview">
        {formatB3tr(preview.totalMilli)} B3TR
      </p>
      <table className="breakdown" aria-label="Reward if accepted">
        <tbody>
          <tr>
            <td>Base reward</td>
            <td>{wholeB3trText(reward.baseReward)}</td>
          </tr>
          <tr>
            <td>Streak bonus ({streak} {streak === 1 ? 'day' : 'days'})</td>
            <td>×{reward.streakMultiplier}</td>
          </tr>
          <tr>
            <td>Transportation bonus</td>
            <td>×{reward.transportMultiplier}</td>
          </tr>
          {firstReceiptBonusMilli > 0 ? (
            <tr>
              <td>First receipt bonus</td>
              <td>+{formatB3tr(firstReceiptBonusMilli)} B3TR</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p className="small muted" style={{ margin: 0 }}>
        The same for every fare: {wholeB3trText(reward.baseReward)} base per verified receipt.
      </p>
    </section>
  )
}

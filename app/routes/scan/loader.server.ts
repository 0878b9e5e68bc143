import type { SerializeFrom } from '@remix-run/node'
import type { User } from '~/users/users.server'
import { getInboundAddress } from '~/ereceipts/inbound.server'
import { EMAIL_MIME, getStoredAnalysis } from '~/analysis/analyses.server'
import { analysisRefusal } from '~/receipts/intake.server'
import { getRewardPreview } from '~/receipts/reward-preview.server'
import { getStanding } from '~/receipts/standing.server'
import { passportReviewReasons } from '~/receipts/passport-signals'
import { waitReasons } from '~/receipts/wait-reasons'
import { getPassportCheck } from '~/chain/passport.server'
import { listTransportationServices } from '~/receipts/services.server'
import { countActionsToday } from '~/rewards/daily-limit.server'
import { secondsToUtcMidnight, utcDay } from '~/utils/calendar'
import { getDb } from '~/utils/db.server'
import { getEnv } from '~/utils/env.server'
import { parseRowId } from '~/utils/ids'

/** What the scan page shows: the capture step, or (with ?analysis=) the server's reading of a receipt. */
export async function scanPageData(request: Request, user: User) {
  const db = getDb()
  const analysisId = parseRowId(new URL(request.url).searchParams.get('analysis'))
  const stored = analysisId !== null ? await getStoredAnalysis(db, user.id, analysisId) : null
  const maxAgeDays = getEnv().RECEIPT_MAX_AGE_DAYS
  // Issue 10, "refuse early": what would refuse this receipt is shown now, not after the form.
  const refusal =
    stored && !stored.analysis.testMode
      ? await analysisRefusal(db, { userId: user.id, imageHash: stored.imageHash, analysis: stored.analysis, maxAgeDays })
      : null
  // Issue 31: a wallet without standing has its photos checked by staff; say so before it scans,
  // and never preview an instant reward that will go to review.
  const passportCheck = getPassportCheck()
  const passport = passportCheck ? await passportCheck(user.walletAddress) : null
  const standing = await getStanding(db, user.id, passport)
  // What the submission will add to an approval that sends it to review (blacklisted, signalled, unreachable).
  const passportReasons = passportReviewReasons(passport)
  return {
    services: await listTransportationServices(db),
    established: standing.established,
    actionsToday: await countActionsToday(db, user.id),
    testMode: getEnv().RECIRCLE_TEST_MODE,
    inboundAddress: await getInboundAddress(db, user.id),
    today: utcDay(new Date()),
    // The daily limit resets at the next UTC midnight (issue 32: say when, and close the upload till then).
    resetInMinutes: Math.ceil(secondsToUtcMidnight(new Date()) / 60),
    analysis: stored
      ? {
          id: stored.id,
          hasImage: !!stored.image && stored.imageMime !== EMAIL_MIME,
          verifiedSender: typeof stored.analysis.verifiedSender === 'string' ? stored.analysis.verifiedSender : null,
          storeName: stored.analysis.storeName,
          category: stored.analysis.category,
          totalAmount: stored.analysis.totalAmount,
          // Shown in the receipt's own currency (₩27,700), never converted.
          currency: stored.analysis.currency ?? null,
          purchaseDate: stored.analysis.purchaseDate,
          confidence: typeof stored.analysis.confidence === 'number' ? stored.analysis.confidence : 0,
          isAcceptable: stored.analysis.isAcceptable,
          needsManualReview: stored.analysis.needsManualReview,
          testMode: !!stored.analysis.testMode,
          reasons: stored.analysis.reasons,
          captureAdvice: typeof stored.analysis.captureAdvice === 'string' ? stored.analysis.captureAdvice : null,
          refusal,
          // Issue 32: the preview runs the submission's checks. A photo the verdict would approve still
          // waits for staff while the wallet has no standing, and any receipt waits on a Passport reason.
          waitsForStaff: passportReasons.length > 0 || (!standing.established && !(typeof stored.analysis.verifiedSender === 'string')),
          // Issue 40: the same reasons the receipt's page will list once it is sent, worked out now.
          waitReasons: waitReasons({
            reasons: [...(stored.analysis.needsManualReview ? stored.analysis.reasons : []), ...passportReasons],
            waitsForStanding: !stored.analysis.needsManualReview && !standing.established && typeof stored.analysis.verifiedSender !== 'string',
            standing,
          }),
          waitsForStanding: !standing.established && typeof stored.analysis.verifiedSender !== 'string',
          // What the server pays if it accepts this receipt now (issue 24).
          rewardPreview: await getRewardPreview(db, user, stored.analysis.category),
        }
      : null,
  }
}

export type ScanPageData = SerializeFrom<typeof scanPageData>

import type { DB } from '#db/db.server'
import { deleteExpiredRateLimits } from '~/utils/rate-limit.server'
import { purgeOldJobs } from '~/analysis/analysis-queue.server'
import { purgeOldDebugLogs } from '~/debug/debug-logs.server'
import { purgeOldDeliveries } from '~/ereceipts/webhook.server'
import { purgeExpiredConfirmations } from './forwarding-confirmations.server'

export const IMAGE_RETENTION_DAYS = 90
/** Analyses that were never submitted are only useful while the user is on the form. */
export const ANALYSIS_RETENTION_HOURS = 24

/** Terms of service: receipt images are deleted after 90 days. Idempotent, safe on every instance. */
export async function purgeExpiredReceiptData(db: DB, now = new Date()) {
  const imageCutoff = new Date(now.getTime() - IMAGE_RETENTION_DAYS * 86_400_000).toISOString()
  const analysisCutoff = new Date(now.getTime() - ANALYSIS_RETENTION_HOURS * 3_600_000).toISOString()
  const images = await db
    .updateTable('receipts')
    .set({ image: null, image_mime: null })
    .where('created_at', '<', imageCutoff)
    .where('image', 'is not', null)
    .executeTakeFirst()
  const analyses = await db.deleteFrom('receipt_analyses').where('created_at', '<', analysisCutoff).executeTakeFirst()
  const challenges = await db.deleteFrom('auth_challenges').where('expires_at', '<', now.toISOString()).executeTakeFirst()
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<', now.toISOString()).executeTakeFirst()
  const rateLimits = await deleteExpiredRateLimits(db, now)
  const debugLogs = await purgeOldDebugLogs(db, now)
  const analysisJobs = await purgeOldJobs(db, now)
  const inboundDeliveries = await purgeOldDeliveries(db, now)
  const forwardingConfirmations = await purgeExpiredConfirmations(db, now)
  return {
    images: Number(images.numUpdatedRows),
    analyses: Number(analyses.numDeletedRows),
    challenges: Number(challenges.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
    rateLimits,
    debugLogs,
    analysisJobs,
    inboundDeliveries,
    forwardingConfirmations,
  }
}

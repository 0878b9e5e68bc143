import type { Migration, MigrationProvider } from 'kysely'
import * as m0001 from './0001-initial'
import * as m0002 from './0002-analysis-images'
import * as m0003 from './0003-payout-worker'
import * as m0005 from './0005-receipt-identity'
import * as m0006 from './0006-rate-limits'
import * as m0007 from './0007-debug-logs'
import * as m0008 from './0008-bigint-amounts'
import * as m0009 from './0009-analysis-jobs'
import * as m0010 from './0010-receipts-user-status'
import * as m0011 from './0011-ereceipts'
import * as m0012 from './0012-notices-seen'
import * as m0013 from './0013-inbound-deliveries'
import * as m0014 from './0014-standing'
import * as m0015 from './0015-forwarded-outcomes'
import * as m0016 from './0016-forwarded-refusal-once-a-day'
import * as m0017 from './0017-device-codes'
import * as m0018 from './0018-maturing-and-audits'
import * as m0019 from './0019-receipt-thumbnails'
import * as m0020 from './0020-forwarding-confirmations'
import * as m0022 from './0022-receipt-trip-moment'

/** Listed explicitly (not read from disk) so the migrations survive bundling. */
export const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-analysis-images': m0002,
  '0003-payout-worker': m0003,
  '0005-receipt-identity': m0005,
  '0006-rate-limits': m0006,
  '0007-debug-logs': m0007,
  '0008-bigint-amounts': m0008,
  '0009-analysis-jobs': m0009,
  '0010-receipts-user-status': m0010,
  '0011-ereceipts': m0011,
  '0012-notices-seen': m0012,
  '0013-inbound-deliveries': m0013,
  '0014-standing': m0014,
  '0015-forwarded-outcomes': m0015,
  '0016-forwarded-refusal-once-a-day': m0016,
  '0017-device-codes': m0017,
  '0018-maturing-and-audits': m0018,
  '0019-receipt-thumbnails': m0019,
  '0020-forwarding-confirmations': m0020,
  '0022-receipt-trip-moment': m0022,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}

import type { LoaderFunctionArgs } from '@remix-run/node'
import { requireUser } from '~/auth/auth.server'
import { csvCell, displayAmountMilli } from '~/engagement/history'
import { formatB3tr } from '~/rewards/money'
import { listUserTransactions } from '~/users/history.server'
import { getDb } from '~/utils/db.server'

/** "Export" on the history card: the user's own ledger as CSV (decision 030). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { api: true })
  const rows = await listUserTransactions(getDb(), user.id, { limit: 100_000 })
  const lines = [
    ['id', 'date', 'type', 'amount_b3tr', 'description', 'status', 'tx_hash'].join(','),
    ...rows.map((r) =>
      [String(r.id), r.createdAt, r.type, formatB3tr(displayAmountMilli(r), 3), r.description, r.status, r.txHash ?? '']
        .map(csvCell)
        .join(','),
    ),
  ]
  return new Response(lines.join('\n') + '\n', {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="recircle-transactions.csv"',
      'Cache-Control': 'no-store',
    },
  })
}

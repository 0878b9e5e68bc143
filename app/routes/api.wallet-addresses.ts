import { json } from '@remix-run/node'
import { getEnv, ZERO_ADDRESS } from '~/utils/env.server'

export async function loader() {
  const env = getEnv()
  return json(
    {
      creatorFundWallet: env.CREATOR_FUND_WALLET ?? ZERO_ADDRESS,
      appFundWallet: env.APP_FUND_WALLET ?? ZERO_ADDRESS,
    },
    { headers: { 'Cache-Control': 'public, max-age=300' } },
  )
}

import { http, HttpResponse } from 'msw'

/** The VeChain Thor REST API of the test network (THOR_NODE_URL=https://thor.test in tests). */
export const THOR_URL = 'https://thor.test'

export const thorHandlers = [
  http.get(`${THOR_URL}/blocks/best`, () =>
    HttpResponse.json({
      number: 21_000_000,
      id: '0x0140d2f0' + 'ab'.repeat(28),
      timestamp: Math.floor(Date.now() / 1000),
    }),
  ),
]

import type { Server } from 'node:http'

/**
 * Drain an HTTP server (issue 25): keep accepting for `delayMs` (while /readyz already answers 503,
 * so a load balancer takes the instance out), then stop accepting and close idle keep-alive
 * connections, and wait for the requests in flight, at most `graceMs`. Whatever is still open then
 * is cut. Resolves with how many connections had to be cut.
 */
export async function drainServer(server: Server, opts: { delayMs: number; graceMs: number }): Promise<{ cut: number }> {
  if (opts.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, opts.delayMs))
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // A keep-alive connection whose request was in flight becomes idle after its answer: close it then.
  server.closeIdleConnections()
  const sweep = setInterval(() => server.closeIdleConnections(), 100)
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), opts.graceMs)
  })
  const result = await Promise.race([closed.then(() => 'drained' as const), late])
  clearTimeout(timer)
  clearInterval(sweep)
  if (result === 'drained') return { cut: 0 }
  const connections = await new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count ?? 0)))
  server.closeAllConnections()
  return { cut: connections }
}

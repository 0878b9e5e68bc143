/**
 * Pure: which route pattern a request path belongs to, for metric labels and log lines. A label
 * must come from a short fixed list (each distinct value is a time series in Prometheus), so a
 * path is named by its pattern (`/scan/receipts/:id`), never by itself (`/scan/receipts/42`).
 * This app has no optional segments (`($lang)`), so they are not handled.
 */

/** The part of a Remix build's route manifest this needs. */
export type RouteManifest = Record<string, { id: string; path?: string; index?: boolean; parentId?: string } | undefined>

type Pattern = { label: string; segments: string[]; score: number }

/** Every route's full path as a pattern, best match first (static beats dynamic beats splat). */
export function routePatterns(routes: RouteManifest): Pattern[] {
  const fullPath = (id: string): string[] => {
    const route = routes[id]
    if (!route) return []
    const own = (route.path ?? '').split('/').filter(Boolean)
    return route.parentId ? [...fullPath(route.parentId), ...own] : own
  }
  const seen = new Set<string>()
  const patterns: Pattern[] = []
  for (const route of Object.values(routes)) {
    if (!route) continue
    // A layout without a path of its own adds nothing its children do not.
    if (route.path === undefined && !route.index && route.parentId) continue
    const segments = fullPath(route.id)
    const label = '/' + segments.join('/')
    if (seen.has(label)) continue
    seen.add(label)
    patterns.push({ label, segments, score: scoreOf(segments) })
  }
  return patterns.sort((a, b) => b.score - a.score || b.segments.length - a.segments.length)
}

// react-router's ranking, simplified: a static segment outranks a parameter, a splat ranks last.
function scoreOf(segments: string[]): number {
  let score = segments.length
  for (const s of segments) score += s === '*' ? -2 : s.startsWith(':') ? 3 : 10
  return score
}

function matches(pattern: Pattern, parts: string[]): boolean {
  const { segments } = pattern
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]
    if (s === '*') return true
    const part = parts[i]
    if (part === undefined) return false
    if (s.startsWith(':')) continue
    if (s.toLowerCase() !== part.toLowerCase()) return false
  }
  return parts.length === segments.length
}

/** A function from a path to the pattern of the route Remix will answer it with ('unmatched' when none). */
export function createRouteLabeler(routes: RouteManifest): (pathname: string) => string {
  const patterns = routePatterns(routes)
  return (pathname) => {
    const parts = split(pathname)
    return patterns.find((p) => matches(p, parts))?.label ?? 'unmatched'
  }
}

function split(pathname: string): string[] {
  return pathname.split('/').filter(Boolean)
}

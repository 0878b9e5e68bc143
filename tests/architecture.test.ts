/**
 * The layers of docs/architecture.md, held: every import in app/ and db/ points to its own layer or
 * a lower one, and no module imports itself back through others (an import circle). Type-only
 * imports count too: they bind the modules as much for a reader.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..')

/** Top to bottom. A folder (or a file at app/'s top) belongs to one layer. */
export const LAYERS: ReadonlyArray<{ name: string; members: readonly string[] }> = [
  { name: 'routes', members: ['routes', 'root.tsx', 'entry.client.tsx', 'entry.server.tsx'] },
  { name: 'ui', members: ['components'] },
  {
    name: 'domain',
    members: ['receipts', 'rewards', 'referrals', 'engagement', 'stores', 'store-submissions', 'claims', 'users', 'admin', 'payouts', 'feedback', 'debug', 'auth'],
  },
  { name: 'analysis', members: ['analysis'] },
  { name: 'readers and chain', members: ['ocr', 'ereceipts', 'chain'] },
  { name: 'infrastructure', members: ['ops', 'utils', 'styles', 'db'] },
]

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(full, out)
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full)
  }
  return out
}

function resolveImport(from: string, spec: string): string | null {
  let base: string
  if (spec.startsWith('~/')) base = path.join(ROOT, 'app', spec.slice(2))
  else if (spec.startsWith('#db/')) base = path.join(ROOT, 'db', spec.slice(4))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'route.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate
  }
  return null
}

function layerOf(file: string): number {
  const rel = path.relative(ROOT, file)
  const top = rel.startsWith('db/') ? 'db' : path.relative(path.join(ROOT, 'app'), file).split(path.sep)[0]
  return LAYERS.findIndex((l) => l.members.includes(top))
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of [...sourceFiles(path.join(ROOT, 'app')), ...sourceFiles(path.join(ROOT, 'db'))]) {
    const source = fs.readFileSync(file, 'utf8')
    const specs = [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2])
    graph.set(file, [...new Set(specs.map((s) => resolveImport(file, s)).filter((t): t is string => t !== null))])
  }
  return graph
}

/** Strongly connected components with more than one module (Tarjan). */
function importCircles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (v: string) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(path.relative(ROOT, w))
      } while (w !== v)
      if (component.length > 1) circles.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return circles
}

describe('architecture (docs/architecture.md)', () => {
  const graph = importGraph()

  it('places every folder of app/ in a layer', () => {
    const unplaced = [...graph.keys()].filter((f) => layerOf(f) === -1).map((f) => path.relative(ROOT, f))
    expect(unplaced).toEqual([])
  })

  it('has no import circle', () => {
    expect(importCircles(graph)).toEqual([])
  })

  it('imports only from the same layer or a lower one', () => {
    const upward: string[] = []
    for (const [file, targets] of graph) {
      for (const target of targets) {
        if (layerOf(target) < layerOf(file)) upward.push(`${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`)
      }
    }
    expect(upward).toEqual([])
  })
})

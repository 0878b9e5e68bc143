/**
 * The suites share a module graph within a worker (vitest.config.ts, decision 107): a module one
 * file replaced with vi.mock would be the replacement in the files after it. So no suite does.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..')

function testFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) testFiles(full, out)
    else if (/\.test\.tsx?$/.test(entry.name)) out.push(full)
  }
  return out
}

describe('the test harness', () => {
  it('no suite replaces a module (vi.mock, vi.doMock, vi.resetModules): workers keep modules between files', () => {
    const files = ['app', 'db', 'scripts', 'tests'].flatMap((dir) => testFiles(path.join(ROOT, dir)))
    expect(files.length).toBeGreaterThan(50)
    const replacing = /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|resetModules)\s*\(/
    const offenders = files.filter((file) => file !== __filename && replacing.test(fs.readFileSync(file, 'utf8')))
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([])
  })
})
